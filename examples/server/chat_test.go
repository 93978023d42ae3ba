package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
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
