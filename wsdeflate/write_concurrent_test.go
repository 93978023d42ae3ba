package wsdeflate

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPingReturnsWhenTheConnectionEnds: a Ping with no deadline waiting for
// its pong returns ErrClosed when the peer vanishes and Read fails, instead
// of waiting for a pong that can no longer come.
func TestPingReturnsWhenTheConnectionEnds(t *testing.T) {
	url, conns, base := connServer(t, nil)
	rc := dialRaw(t, url, "")
	c := accepted(t, conns)
	_, end := readLoop(c)
	pinged := make(chan error, 1)
	go func() { pinged <- c.Ping(context.Background()) }()
	if h, _ := rc.next(); h.op != opPing {
		t.Fatalf("server sent opcode %#x, want its ping", byte(h.op))
	}
	rc.nc.Close()
	within(t, end, 10*time.Second, "the end of Read after the peer vanished")
	if err := within(t, pinged, 10*time.Second, "Ping's return after the connection ended"); !errors.Is(err, ErrClosed) {
		t.Errorf("Ping on a connection that ended = %v, want ErrClosed", err)
	}
	settle(t, base)
}

// TestConcurrentWritersPingersReaderAndClose: writers of whole and streamed
// messages, pingers and a reader share one client Conn whose server echoes
// and pings it back (and sees the client's pongs); Close runs while they
// are all busy. Under -race every
// call returns, with nil or the documented error (ErrClosed once the close
// handshake has started, the server's 1000 for Read), every echo is whole,
// the codec state goes back to the pools and no goroutine is left.
func TestConcurrentWritersPingersReaderAndClose(t *testing.T) {
	ponged := make(chan struct{}, 1) // the client answered a server's ping
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			for c.Ping(ctx) == nil {
				select {
				case ponged <- struct{}{}:
				default:
				}
			}
		}()
		for {
			typ, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			if c.Write(ctx, typ, msg) != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	base := runtime.NumGoroutine()
	c, _, err := Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}

	const writers, each, pingers = 4, 30, 2
	// Sizes from 100 bytes to 40 KB: streamed ones above 16 KiB go out in
	// several fragments, with pongs and pings between them.
	message := func(n int) []byte { return jsonMessage(uint64(n), 100+n*1999%40000) }
	sent := map[string]bool{}
	for n := range writers * each {
		sent[string(message(n))] = true
	}

	half := make(chan struct{})
	readErr := make(chan error, 1)
	go func() {
		got := 0
		for {
			_, msg, err := c.Read(context.Background())
			if err != nil {
				readErr <- err
				return
			}
			if !sent[string(msg)] {
				readErr <- errors.New("an echo is not one of the messages sent")
				return
			}
			if got++; got == writers*each/2 {
				close(half)
			}
		}
	}()

	var wg sync.WaitGroup
	errs := make(chan error, writers+pingers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				err := writeMessage(ctx, c, message(w*each+i), i%3 == 0)
				cancel()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range pingers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				err := c.Ping(ctx)
				cancel()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}

	select {
	case <-half:
	case err := <-readErr:
		t.Fatalf("Read before Close: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("half the echoes did not arrive within 30s")
	}
	within(t, ponged, 30*time.Second, "a pong from the client to the server's pings")
	if err := c.Close(StatusNormalClosure, ""); err != nil {
		t.Errorf("Close: %v", err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("Write or Ping during Close = %v, want nil or ErrClosed", err)
		}
	}
	if err := within(t, readErr, 10*time.Second, "the end of Read"); CloseStatus(err) != StatusNormalClosure {
		t.Errorf("Read during Close = %v, want the server's 1000", err)
	}
	if enc, dec := released(c); enc || dec {
		t.Errorf("after Close: live encoder %t, decoder %t; want both back in the pools", enc, dec)
	}
	settle(t, base)
}

// writeMessage sends msg with Write, or streamed with Writer in 4 KiB
// writes.
func writeMessage(ctx context.Context, c *Conn, msg []byte, streamed bool) error {
	if !streamed {
		return c.Write(ctx, MessageText, msg)
	}
	w, err := c.Writer(ctx, MessageText)
	if err != nil {
		return err
	}
	for p := msg; len(p) > 0; {
		n := min(len(p), 4<<10)
		if _, err := w.Write(p[:n]); err != nil {
			w.Close()
			return err
		}
		p = p[n:]
	}
	return w.Close()
}
