package wsdeflate

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDialHTTPClientWithoutExtendedConnectUsesHTTP1 gives Dial net/http's
// own client, whose Transport refuses the :protocol header of an Extended
// CONNECT (RFC 8441 §4) before sending anything: Dial must go on over
// HTTP/1.1, as it does without a client, and echo a message.
func TestDialHTTPClientWithoutExtendedConnectUsesHTTP1(t *testing.T) {
	t.Parallel()
	url, _ := echoServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := Dial(ctx, url, &DialOptions{HTTPClient: &http.Client{}})
	if err != nil {
		t.Fatalf("Dial with net/http's client: %v", err)
	}
	defer c.Close(StatusNormalClosure, "")
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake answered %s; want 101 over HTTP/1.1", resp.Status)
	}
	if err := c.Write(ctx, MessageText, []byte("over HTTP/1.1")); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := c.Read(ctx); err != nil || string(msg) != "over HTTP/1.1" {
		t.Fatalf("echo %q, %v", msg, err)
	}
}

// TestDialHTTPClientTimeoutIsRefused: http.Client.Timeout would end the
// WebSocket, not its handshake, so Dial refuses it before connecting and
// names the field.
func TestDialHTTPClientTimeoutIsRefused(t *testing.T) {
	t.Parallel()
	_, _, err := Dial(context.Background(), "ws://127.0.0.1:1/", &DialOptions{HTTPClient: &http.Client{Timeout: time.Second}})
	if err == nil || !strings.Contains(err.Error(), "DialOptions.HTTPClient.Timeout") {
		t.Fatalf("Dial with a client Timeout: %v; want an error naming DialOptions.HTTPClient.Timeout", err)
	}
}
