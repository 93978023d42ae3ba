package wsdeflate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestCloseRefusesCodesThatMayNotBeSent(t *testing.T) {
	url, _ := echoServer(t, nil)
	c, _, err := Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close(StatusNormalClosure, "")
	for _, code := range []StatusCode{0, 999, 1004, 1005, 1006, 1015, 2000, 5000} {
		if err := c.Close(code, ""); err == nil {
			t.Errorf("Close(%d) succeeded; RFC 6455 §7.4 does not allow sending it", code)
		}
	}
	if err := c.Close(StatusNormalClosure, strings.Repeat("r", 124)); err == nil {
		t.Error("Close with a 124-byte reason succeeded; a close payload is at most 125 bytes")
	}
	// The connection is still open after refused Closes.
	if err := c.Write(context.Background(), MessageText, []byte("still open")); err != nil {
		t.Errorf("Write after refused Closes: %v", err)
	}
}

func TestPeerCloseReachesRead(t *testing.T) {
	url := rawServer(t, "", "", []byte{0x88, 0x05, 0x0F, 0xA0, 'b', 'y', 'e'}, nil) // close 4000 "bye"
	c, _, err := Dial(context.Background(), url, &DialOptions{Compression: Config{Disabled: true}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	_, _, err = c.Read(context.Background())
	var ce CloseError
	if !errors.As(err, &ce) || ce.Code != 4000 || ce.Reason != "bye" {
		t.Fatalf("Read = %v, want CloseError 4000 \"bye\"", err)
	}
	if _, _, again := c.Read(context.Background()); again != err {
		t.Errorf("second Read = %v, want the same close error", again)
	}
}

func TestSetReadLimitCountsDecompressedBytes(t *testing.T) {
	url, _ := echoServer(t, nil)
	c, ctx := dialForTest(t, url)
	c.SetReadLimit(4096)
	// Compresses to far less than 4096 bytes, inflates to 8192.
	if err := c.Write(ctx, MessageText, []byte(strings.Repeat("a", 8192))); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if _, _, err := c.Read(ctx); !errors.Is(err, ErrMessageTooBig) {
		t.Fatalf("Read of an 8192-byte message with a 4096 limit = %v, want a 1009 failure", err)
	}
}

// TestCloseErrorMatchesBothErrorsAsForms: the coder/websocket idiom
// (var ce CloseError; errors.As(err, &ce)) and the pointer form both find
// the peer's close frame, also when the error is wrapped; neither panics.
func TestCloseErrorMatchesBothErrorsAsForms(t *testing.T) {
	goroutinesReturn(t)
	url := rawServer(t, "", "", []byte{0x88, 0x05, 0x0F, 0xA0, 'b', 'y', 'e'}, nil) // close 4000 "bye"
	c, _, err := Dial(context.Background(), url, &DialOptions{Compression: Config{Disabled: true}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	_, _, err = c.Read(context.Background())
	for _, err := range []error{err, fmt.Errorf("handler: %w", err)} {
		var ce CloseError
		if !errors.As(err, &ce) || ce.Code != 4000 || ce.Reason != "bye" {
			t.Errorf("errors.As(%v, *CloseError value) = %+v, want 4000 \"bye\"", err, ce)
		}
		var pce *CloseError
		if !errors.As(err, &pce) || pce.Code != 4000 || pce.Reason != "bye" {
			t.Errorf("errors.As(%v, **CloseError) = %+v, want 4000 \"bye\"", err, pce)
		}
		if got := CloseStatus(err); got != 4000 {
			t.Errorf("CloseStatus(%v) = %d, want 4000", err, got)
		}
	}
	if got := CloseStatus(&CloseError{Code: StatusGoingAway}); got != StatusGoingAway {
		t.Errorf("CloseStatus of a *CloseError = %d, want 1001", got)
	}
}

// TestCloseStatusWithoutCloseFrameIsMinusOne: as in coder/websocket,
// CloseStatus is -1 for an error that carries no close frame, such as a
// peer that vanished without one (1006 is never on the wire).
func TestCloseStatusWithoutCloseFrameIsMinusOne(t *testing.T) {
	goroutinesReturn(t)
	url := rawServer(t, "", "", nil, nil) // closes the TCP connection after the handshake
	c, _, err := Dial(context.Background(), url, &DialOptions{Compression: Config{Disabled: true}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	_, _, err = c.Read(context.Background())
	if err == nil {
		t.Fatal("Read after the peer vanished returned no error")
	}
	for _, err := range []error{nil, io.EOF, err} {
		if got := CloseStatus(err); got != -1 {
			t.Errorf("CloseStatus(%v) = %d, want -1", err, got)
		}
	}
}
