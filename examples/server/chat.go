package main

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/squeezehttp/squeeze/wsdeflate"
)

// sendQueue is how many messages may wait for one client. A client that
// falls this far behind is disconnected rather than allowed to hold up the
// broadcast or make the server buffer without bound.
const sendQueue = 32

// writeTimeout bounds one write to a client.
const writeTimeout = 5 * time.Second

// maxMessage is the largest message the room takes, in bytes: a longer one
// closes its sender's connection with 1009. A chat line needs no more, and
// each message may wait in every client's queue.
const maxMessage = 4 << 10

// maxClients is how many may be in the room at once; the next is refused
// with 503 before the upgrade. With sendQueue and maxMessage it bounds what
// the room's queues can hold, and the compression state, which is kept per
// connection.
const maxClients = 64

// chat is a room: every text message a client sends is broadcast to every
// connected client, the sender included, so a lone client gets an echo.
type chat struct {
	slots   limit // one place per connection
	mu      sync.Mutex
	clients map[*chatClient]struct{}
}

type chatClient struct {
	conn *wsdeflate.Conn
	send chan []byte
	// closing counts the Closes broadcast started: over HTTP/2 the
	// connection is the handler's stream, which must not be written to
	// once the handler has returned.
	closing sync.WaitGroup
}

func newChat() *chat {
	return &chat{slots: newLimit(maxClients), clients: map[*chatClient]struct{}{}}
}

// ServeHTTP upgrades the request to a WebSocket with permessage-deflate and
// context takeover in both directions (the zero wsdeflate.Config), then reads
// the client's messages, up to maxMessage bytes each, until it goes away.
func (ch *chat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !ch.slots.enter(w, "chat clients") {
		return
	}
	defer ch.slots.leave()
	conn, err := wsdeflate.Accept(w, r, &wsdeflate.AcceptOptions{ReadLimit: maxMessage})
	if err != nil {
		return // Accept has answered the request with an error status.
	}
	c := &chatClient{conn: conn, send: make(chan []byte, sendQueue)}
	// Tell this page which protocol carries its socket: HTTP/1.1 (an
	// Upgrade) or HTTP/2.0 (an Extended CONNECT on the page's connection).
	wctx, cancelWrite := context.WithTimeout(r.Context(), writeTimeout)
	err = conn.Write(wctx, wsdeflate.MessageText, []byte("this socket runs over "+r.Proto))
	cancelWrite()
	if err != nil {
		return
	}
	defer c.closing.Wait() // after leave: no Close can start once it returns
	ch.join(c)
	defer ch.leave(c)

	// One writer goroutine per client, so a slow reader on the other end
	// only ever blocks its own queue. The handler waits for it: over
	// HTTP/2 nothing may write after the handler returns.
	ctx, cancel := context.WithCancel(r.Context())
	written := make(chan struct{})
	go func() {
		defer close(written)
		c.writeLoop(ctx)
	}()
	defer func() {
		cancel()
		<-written
	}()

	for {
		typ, msg, err := conn.Read(r.Context())
		if err != nil {
			return
		}
		if typ == wsdeflate.MessageText {
			ch.broadcast(msg)
		}
	}
}

func (ch *chat) join(c *chatClient) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	ch.clients[c] = struct{}{}
}

func (ch *chat) leave(c *chatClient) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if _, ok := ch.clients[c]; ok {
		delete(ch.clients, c)
		close(c.send)
	}
}

// broadcast queues msg for every client without waiting for any of them.
func (ch *chat) broadcast(msg []byte) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	for c := range ch.clients {
		select {
		case c.send <- msg:
		default:
			// The client's queue is full: drop it, not the message for the others.
			delete(ch.clients, c)
			close(c.send)
			c.closing.Add(1)
			go func() {
				defer c.closing.Done()
				c.conn.Close(wsdeflate.StatusPolicyViolation, "too slow")
			}()
		}
	}
}

// writeLoop sends what is queued for c until the queue is closed or ctx ends.
func (c *chatClient) writeLoop(ctx context.Context) {
	for {
		select {
		case msg, ok := <-c.send:
			if !ok {
				return
			}
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.conn.Write(wctx, wsdeflate.MessageText, msg)
			cancel()
			if err != nil {
				c.conn.Close(wsdeflate.StatusGoingAway, "write failed")
				return
			}
		case <-ctx.Done():
			return
		}
	}
}
