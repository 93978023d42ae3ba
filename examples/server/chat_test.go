package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/wsdeflate"
)

func TestChatDropsAClientWhoseQueueIsFull(t *testing.T) {
	// Server-side Conns for chatClients whose write loops the test controls.
	conns := make(chan *wsdeflate.Conn)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := wsdeflate.Accept(w, r, nil)
		if err != nil {
			return
		}
		conns <- c
		<-release
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	accept := func() (*chatClient, *wsdeflate.Conn) {
		peer, _, err := wsdeflate.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return &chatClient{conn: <-conns, send: make(chan []byte, sendQueue)}, peer
	}
	ch := newChat()
	slow, slowPeer := accept()
	fast, _ := accept()
	ch.join(slow)
	ch.join(fast)

	// Nothing drains slow's queue; fast's is emptied as a write loop would.
	for i := range sendQueue + 1 {
		ch.broadcast([]byte("message"))
		if got := <-fast.send; string(got) != "message" {
			t.Fatalf("broadcast %d: fast client got %q", i, got)
		}
	}
	if _, ok := ch.clients[slow]; ok {
		t.Fatalf("a client %d messages behind is still in the room", sendQueue+1)
	}
	if _, ok := ch.clients[fast]; !ok {
		t.Fatal("the fast client was dropped too")
	}
	// The slow client is told why: the server closes with 1008.
	for {
		if _, _, err := slowPeer.Read(ctx); err != nil {
			if code := wsdeflate.CloseStatus(err); code != wsdeflate.StatusPolicyViolation {
				t.Fatalf("slow client closed with %v (%d), want 1008", err, code)
			}
			break
		}
	}
}

func TestChatRefusesClientsBeyondMaxClients(t *testing.T) {
	ch := newChat()
	srv := httptest.NewServer(ch)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	// Every slot but one is held, as by connections in the room.
	for range maxClients - 1 {
		ch.slots <- struct{}{}
	}
	last, _, err := wsdeflate.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("the room's last place: %v", err)
	}
	_, resp, err := wsdeflate.Dial(ctx, url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a client beyond %d: %v (response %v), want 503", maxClients, err, resp)
	}
	// Once a client leaves, its place is free again.
	last.Close(wsdeflate.StatusNormalClosure, "")
	for {
		c, resp, err := wsdeflate.Dial(ctx, url, nil)
		if err == nil {
			c.Close(wsdeflate.StatusNormalClosure, "")
			break
		}
		if resp == nil || resp.StatusCode != http.StatusServiceUnavailable || ctx.Err() != nil {
			t.Fatalf("after a client left: %v", err)
		}
		// The server frees the place when its handler returns, which may
		// be just after the client sees the close.
		runtime.Gosched()
	}
}

func TestChatClosesASenderOverMaxMessage(t *testing.T) {
	srv := httptest.NewServer(newChat())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	c, _, err := wsdeflate.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(wsdeflate.StatusNormalClosure, "")
	// The first message says which protocol carries the socket.
	if _, got, err := c.Read(ctx); err != nil || string(got) != "this socket runs over HTTP/1.1" {
		t.Fatalf("first message %q, %v; want the protocol", got, err)
	}
	// A message at the limit is broadcast back to its sender.
	ok := strings.Repeat("a", maxMessage)
	if err := c.Write(ctx, wsdeflate.MessageText, []byte(ok)); err != nil {
		t.Fatal(err)
	}
	if _, got, err := c.Read(ctx); err != nil || string(got) != ok {
		t.Fatalf("a message of %d bytes: %v, echo of %d bytes", maxMessage, err, len(got))
	}
	if err := c.Write(ctx, wsdeflate.MessageText, []byte(ok+"a")); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Read(ctx)
	if code := wsdeflate.CloseStatus(err); code != wsdeflate.StatusMessageTooBig {
		t.Fatalf("after a message of %d bytes: %v (close status %d), want 1009", maxMessage+1, err, code)
	}
}
