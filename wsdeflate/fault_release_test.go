package wsdeflate

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// faultServer accepts permessage-deflate connections that never release
// their codec state for idleness (so only the end of the connection can),
// hands each Conn to accepted, echoes until a Read or Write fails and hands
// each finished Conn to ended.
func faultServer(t *testing.T, opts AcceptOptions) (url string, accepted, ended chan *Conn) {
	t.Helper()
	accepted, ended = make(chan *Conn, 4), make(chan *Conn, 4)
	opts.IdleRelease = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, &opts)
		if err != nil {
			return
		}
		accepted <- c
		defer func() { ended <- c }()
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		for {
			typ, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, msg); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), accepted, ended
}

// released waits up to a second for c, which has ended, to give its
// encoder and decoder back, and reports which it still holds.
func released(c *Conn) (encoder, decoder bool) {
	deadline := time.Now().Add(time.Second)
	for {
		encoder, decoder = liveState(c)
		if !encoder && !decoder || time.Now().After(deadline) {
			return encoder, decoder
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestConnectionFaultsReleaseCodecState ends connections in every way a
// peer can: vanishing mid-message and mid-frame, vanishing before the echo
// is written, and sending a bomb. Before each, one compressed echo has
// taken the server's encoder and decoder from the pools (checked, so that
// nothing taken cannot pass for everything returned); after each, the
// server's Conn holds neither (both went back to the pools), a new
// connection echoes, and goroutines settle.
func TestConnectionFaultsReleaseCodecState(t *testing.T) {
	comp := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: 15})
	msg, _ := comp.Compress(nil, jsonMessage(1, 4000))
	bomb, _ := newCompressor(Direction{MaxWindowBits: 15}).Compress(nil, make([]byte, 10<<20))
	cases := []struct {
		name string
		run  func(rc *rawClient) // the fault, after the first echo
	}{
		{"peer vanishes mid-message", func(rc *rawClient) {
			rc.send(frame{h: header{op: opText, rsv1: true}, payload: msg[:len(msg)/2]})
		}},
		{"peer vanishes mid-frame", func(rc *rawClient) {
			full := frame{h: header{op: opText, fin: true, rsv1: true}, payload: msg}
			var b []byte
			h := full.h
			h.length, h.masked = int64(len(msg)), true
			b = appendHeader(b, h)
			rc.nc.Write(append(b, msg[:100]...))
		}},
		{"peer vanishes before the echo", func(rc *rawClient) {
			rc.send(frame{h: header{op: opBinary, fin: true}, payload: make([]byte, 1<<20)})
		}},
		{"bomb", func(rc *rawClient) {
			rc.send(frame{h: header{op: opBinary, fin: true, rsv1: true}, payload: bomb})
			rc.expectClose(StatusMessageTooBig)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := runtime.NumGoroutine()
			url, accepted, ended := faultServer(t, AcceptOptions{ReadLimit: 1 << 20})
			rc := dialRaw(t, url, ExtensionName)
			var srvConn *Conn
			select {
			case srvConn = <-accepted:
			case <-time.After(5 * time.Second):
				t.Fatal("the server did not accept the connection within 5s")
			}
			rc.send(frame{h: header{op: opText, fin: true, rsv1: true}, payload: msg})
			rc.next() // the echo: the server's encoder and decoder are live
			if enc, dec := liveState(srvConn); !enc || !dec {
				t.Fatalf("after the first echo, before the fault: live encoder %t, decoder %t; want both taken from the pools", enc, dec)
			}
			tc.run(rc)
			rc.nc.Close()
			var c *Conn
			select {
			case c = <-ended:
			case <-time.After(5 * time.Second):
				t.Fatal("the server's handler did not return within 5s of the fault")
			}
			if enc, dec := released(c); enc || dec {
				t.Errorf("1s after the connection ended: live encoder %t, decoder %t; want both back in the pools", enc, dec)
			}
			next, ctx := dialForTest(t, url)
			if err := next.Write(ctx, MessageText, []byte("still serving")); err != nil {
				t.Fatalf("next connection: Write: %v", err)
			}
			if _, got, err := next.Read(ctx); err != nil || string(got) != "still serving" {
				t.Fatalf("next connection: echo %q, %v", got, err)
			}
			next.Close(StatusNormalClosure, "")
			<-ended
			if n := soak.SettleGoroutines(base+1, 5*time.Second); n > base+1 {
				t.Errorf("goroutines: %d before, %d five seconds after the fault\n%s", base, n, soak.Stacks())
			}
		})
	}
}

// TestWriteToPeerThatNeverReadsHonoursDeadline: a peer that stops reading
// fills the socket buffers; the server's Write then blocks until its
// context's deadline and returns an error, the connection's memory stays
// bounded by the message and the socket buffers (measured), and the codec
// state goes back to the pools.
func TestWriteToPeerThatNeverReadsHonoursDeadline(t *testing.T) {
	const deadline = 500 * time.Millisecond
	type result struct {
		err     error
		elapsed time.Duration
		sent    int
		c       *Conn
	}
	done := make(chan result, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, &AcceptOptions{IdleRelease: -1})
		if err != nil {
			return
		}
		msg := jsonMessage(7, 64<<10)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res := result{c: c}
		for res.err == nil {
			wctx, wcancel := context.WithTimeout(ctx, deadline)
			start := time.Now()
			res.err = c.Write(wctx, MessageText, msg)
			res.elapsed = time.Since(start)
			wcancel()
			res.sent++
		}
		done <- res
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	s := soak.StartSampler(5 * time.Millisecond)
	rc := dialRaw(t, url, ExtensionName) // and never read
	var res result
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Write to a peer that never reads did not return within 10s")
	}
	peak := s.Stop()
	rc.nc.Close()
	if !errors.Is(res.err, context.DeadlineExceeded) && !strings.Contains(res.err.Error(), "timeout") {
		t.Errorf("the blocked Write returned %v, want a deadline error", res.err)
	}
	if res.elapsed > deadline+time.Second {
		t.Errorf("the blocked Write returned after %v, deadline was %v", res.elapsed, deadline)
	}
	if enc, dec := released(res.c); enc || dec {
		t.Errorf("1s after the failed Write: live encoder %t, decoder %t; want both back in the pools", enc, dec)
	}
	// Each write compresses 64 KiB of JSON; what piles up is the socket
	// buffers, not the library: the heap stays within a few MiB.
	if peak.HeapInuse > 16<<20 {
		t.Errorf("heap grew by %d bytes while the peer did not read", peak.HeapInuse)
	}
	t.Logf("%d messages of 64 KiB written before the peer's buffers filled; blocked Write returned after %v (deadline %v); heap peak +%.2f MiB",
		res.sent-1, res.elapsed.Round(time.Millisecond), deadline, float64(peak.HeapInuse)/(1<<20))
}
