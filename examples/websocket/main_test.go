package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWebSocketEchoesWithPermessageDeflate(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var msgs []string
	for i := range 20 {
		msgs = append(msgs, fmt.Sprintf(`{"id":%d,"user":"squeeze","text":"%s"}`, i, strings.Repeat("context takeover ", 10)))
	}
	replies, ext, err := echo(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/echo", msgs...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ext, "permessage-deflate") {
		t.Errorf("extension %q: permessage-deflate not negotiated", ext)
	}
	if !slices.Equal(replies, msgs) {
		t.Errorf("echoes differ from the messages sent: got %d, first %.60q", len(replies), replies)
	}
}

// TestEchoRouteTakesExtendedCONNECT_RFC8441: the route is registered
// without a method, as wsdeflate's documentation says, so that a WebSocket
// over HTTP/2, an Extended CONNECT with :protocol websocket (RFC 8441 §4),
// reaches Accept instead of the mux's 405. Accept then answers it (here
// 400: the request carries no Sec-WebSocket-Version).
func TestEchoRouteTakesExtendedCONNECT_RFC8441(t *testing.T) {
	r := httptest.NewRequest("CONNECT", "/echo", nil)
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0
	r.Header.Set(":protocol", "websocket")
	rec := httptest.NewRecorder()
	newHandler().ServeHTTP(rec, r)
	if rec.Code == http.StatusMethodNotAllowed {
		t.Fatalf("CONNECT /echo: 405 from the mux; register the route without a method")
	}
}
