package wsdeflate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// connServer starts a server that accepts with opts and hands each Conn to
// the test, which drives it. It also returns the number of goroutines
// running once the server is up, for the leak check at the end of a test.
func connServer(t *testing.T, opts *AcceptOptions) (url string, conns chan *Conn, base int) {
	t.Helper()
	conns = make(chan *Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := Accept(w, r, opts); err == nil {
			conns <- c
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), conns, runtime.NumGoroutine()
}

// accepted waits for the server side of the connection just dialled.
func accepted(t *testing.T, conns chan *Conn) *Conn {
	t.Helper()
	select {
	case c := <-conns:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not accept the connection within 10s")
		return nil
	}
}

// within waits up to d for ch, failing the test with what when it does not
// deliver.
func within[T any](t *testing.T, ch <-chan T, d time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		t.Fatalf("%s did not happen within %v", what, d)
		var zero T
		return zero
	}
}

// settle checks that the goroutines the test started have ended.
func settle(t *testing.T, base int) {
	t.Helper()
	if n := soak.SettleGoroutines(base, 10*time.Second); n > base {
		t.Errorf("goroutines: %d once the server was up, %d ten seconds after the test\n%s", base, n, soak.Stacks())
	}
}

// readLoop reads messages from c until it fails and hands each to the
// returned channels.
func readLoop(c *Conn) (msgs chan string, end chan error) {
	msgs, end = make(chan string, 16), make(chan error, 1)
	go func() {
		for {
			_, msg, err := c.Read(context.Background())
			if err != nil {
				end <- err
				return
			}
			msgs <- string(msg)
		}
	}()
	return msgs, end
}

// expectFrame reads the next frame from the server and checks its opcode
// and payload.
func (rc *rawClient) expectFrame(op opcode, payload string) {
	rc.t.Helper()
	h, p := rc.next()
	if h.op != op || string(p) != payload {
		rc.t.Fatalf("server sent opcode %#x %q, want %#x %q", byte(h.op), p, byte(op), payload)
	}
}

// closeHandshake closes c and answers its close frame from rc, as a peer
// that follows RFC 6455 §7.1.2 does, and checks that the Read in progress
// (end) reports the echo.
func closeHandshake(t *testing.T, c *Conn, rc *rawClient, end chan error) {
	t.Helper()
	closed := make(chan error, 1)
	go func() { closed <- c.Close(StatusNormalClosure, "") }()
	rc.expectClose(StatusNormalClosure)
	rc.send(closeFrame(StatusNormalClosure, ""))
	if err := within(t, closed, 10*time.Second, "Close"); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := within(t, end, 10*time.Second, "the end of Read"); CloseStatus(err) != StatusNormalClosure {
		t.Errorf("Read during Close returned %v, want the peer's 1000", err)
	}
}

// TestWriteDeadlineEndsWithTheWrite: once a Write (or a streamed message)
// whose context had a deadline has returned, that deadline is gone. A ping
// arriving after it is answered with a pong (RFC 6455 §5.5.2: MUST), Read
// keeps working, and Ping is bounded by its own context alone.
func TestWriteDeadlineEndsWithTheWrite(t *testing.T) {
	cases := []struct {
		name  string
		write func(ctx context.Context, c *Conn, p []byte) error
	}{
		{"Write", func(ctx context.Context, c *Conn, p []byte) error {
			return c.Write(ctx, MessageText, p)
		}},
		{"Writer", func(ctx context.Context, c *Conn, p []byte) error {
			w, err := c.Writer(ctx, MessageText)
			if err != nil {
				return err
			}
			if _, err := w.Write(p); err != nil {
				return err
			}
			return w.Close()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, conns, base := connServer(t, nil)
			rc := dialRaw(t, url, "")
			c := accepted(t, conns)
			msgs, end := readLoop(c)

			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if err := tc.write(ctx, c, []byte("before the deadline")); err != nil {
				t.Fatalf("write with a 50ms deadline: %v", err)
			}
			rc.expectFrame(opText, "before the deadline")
			<-ctx.Done() // the write's deadline has passed

			rc.send(frame{h: header{op: opPing, fin: true}, payload: []byte("after")})
			rc.expectFrame(opPong, "after")
			rc.send(data(opText, true, "still reading"))
			if got := within(t, msgs, 10*time.Second, "Read of the message sent after the deadline"); got != "still reading" {
				t.Fatalf("Read = %q, want %q", got, "still reading")
			}

			pinged := make(chan error, 1)
			go func() {
				pctx, pcancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer pcancel()
				pinged <- c.Ping(pctx)
			}()
			h, p := rc.next()
			if h.op != opPing {
				t.Fatalf("server sent opcode %#x, want its ping", byte(h.op))
			}
			rc.send(frame{h: header{op: opPong, fin: true}, payload: p})
			if err := within(t, pinged, 10*time.Second, "Ping's return"); err != nil {
				t.Fatalf("Ping after the write's deadline: %v", err)
			}

			closeHandshake(t, c, rc, end)
			settle(t, base)
		})
	}
}

// stuckPeer returns a server Conn without compression, the raw peer
// connected to it, and the goroutine count once the server was up; the
// peer's socket is good for a minute.
func stuckPeer(t *testing.T) (*Conn, *rawClient, int) {
	t.Helper()
	url, conns, base := connServer(t, &AcceptOptions{Compression: Config{Disabled: true}})
	rc := dialRaw(t, url, "")
	rc.nc.SetDeadline(time.Now().Add(time.Minute))
	return accepted(t, conns), rc, base
}

// blockedWrite makes c, the server's Conn, write msg as one message with a
// 30-second context to rc, which reads the frame's header and first byte
// and then stops reading: msg is far larger than the socket buffers, so
// from then on the frame holds the write side until something ends it. It
// returns the Write's result.
func blockedWrite(t *testing.T, c *Conn, rc *rawClient, msg []byte) chan error {
	t.Helper()
	written := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		written <- c.Write(ctx, MessageBinary, msg)
	}()
	var hbuf [maxHeaderSize]byte
	h, err := readHeader(rc.br, &hbuf)
	if err != nil || h.op != opBinary || h.length < int64(len(msg)) {
		t.Fatalf("peer read header %+v, %v; want the frame of the %d-byte message", h, err, len(msg))
	}
	if _, err := rc.br.ReadByte(); err != nil {
		t.Fatalf("peer read the frame's first byte: %v", err)
	}
	return written
}

// randomBytes returns n incompressible bytes.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	for i := 0; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	return b
}

// TestCloseAndPingAreNotHeldByBlockedWrite: a peer stops reading in the
// middle of a 64 MiB message written with a 30-second context. Ping returns
// when its own context ends; Read still delivers messages (the pong for a
// ping that arrives meanwhile waits for the frame, as RFC 6455 §5.5.3
// allows); Close returns at its bound (shortCloseBound here, 5 seconds by
// default) and closes the socket;
// and the blocked Write returns an error wrapping ErrClosed that says Close
// ended it.
func TestCloseAndPingAreNotHeldByBlockedWrite(t *testing.T) {
	c, rc, base := stuckPeer(t)
	msgs, end := readLoop(c)
	written := blockedWrite(t, c, rc, make([]byte, 64<<20))

	pctx, pcancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer pcancel()
	pinged := make(chan error, 1)
	go func() { pinged <- c.Ping(pctx) }()
	if err := within(t, pinged, 10*time.Second, "Ping's return after its 100ms context ended"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Ping behind a blocked Write = %v, want its context's deadline", err)
	}

	rc.send(frame{h: header{op: opPing, fin: true}, payload: []byte("meanwhile")})
	rc.send(data(opText, true, "read on"))
	if got := within(t, msgs, 10*time.Second, "Read of a message sent while a Write is blocked"); got != "read on" {
		t.Fatalf("Read = %q, want %q", got, "read on")
	}

	err := closeWithinBound(t, c)
	if err == nil || !strings.Contains(err.Error(), "close frame") {
		t.Errorf("Close that could not send its close frame = %v, want an error saying so", err)
	}
	werr := within(t, written, 10*time.Second, "the blocked Write's return")
	if !errors.Is(werr, ErrClosed) || !strings.Contains(werr.Error(), "Close") {
		t.Errorf("blocked Write = %v, want an error wrapping ErrClosed that names Close", werr)
	}
	within(t, end, 10*time.Second, "the end of Read")
	// The socket is closed: what the peer has not read yet ends with EOF
	// or a reset, not with the peer's own read deadline.
	if _, err := io.Copy(io.Discard, rc.br); err != nil && !strings.Contains(err.Error(), "reset") {
		t.Errorf("peer reading the rest: %v, want EOF or a reset", err)
	}
	settle(t, base)
}

// TestPongWaitsForTheFrameInProgress: a ping that arrives while a large
// frame is being written is answered right after that frame (RFC 6455
// §5.5.2; §5.5.3 lets it answer only the latest of several), and Read
// delivers the messages behind the ping without waiting for the frame.
func TestPongWaitsForTheFrameInProgress(t *testing.T) {
	c, rc, base := stuckPeer(t)
	msgs, end := readLoop(c)
	written := blockedWrite(t, c, rc, make([]byte, 64<<20))

	rc.send(frame{h: header{op: opPing, fin: true}, payload: []byte("first")})
	rc.send(frame{h: header{op: opPing, fin: true}, payload: []byte("latest")})
	rc.send(data(opText, true, "behind the pings"))
	if got := within(t, msgs, 10*time.Second, "Read of a message sent while a Write is blocked"); got != "behind the pings" {
		t.Fatalf("Read = %q, want %q", got, "behind the pings")
	}
	// The peer reads again: the rest of the frame, then the pong.
	if _, err := io.CopyN(io.Discard, rc.br, 64<<20-1); err != nil {
		t.Fatalf("peer reading the rest of the frame: %v", err)
	}
	if err := within(t, written, 10*time.Second, "the Write's return"); err != nil {
		t.Fatalf("Write: %v", err)
	}
	rc.expectFrame(opPong, "latest")
	closeHandshake(t, c, rc, end)
	settle(t, base)
}

// TestCloseEndsBlockedCompressedWritesAndReleasesCodecState: a compressed
// message, written whole or streamed with Writer, blocks on a peer that
// stops reading; Close returns within its bound, the writer's error wraps
// ErrClosed, and the connection's encoder and decoder go back to the pools
// although the message was cut in the middle. The whole message is 4 MiB of
// incompressible bytes and the server's socket buffer is made small, so
// that its frame is sure to block; a streamed message releases the frame
// lock between 16 KiB fragments, so Close may also come between two of
// them, and the stream then ends with ErrClosed itself.
func TestCloseEndsBlockedCompressedWritesAndReleasesCodecState(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Write", true: "Writer"}[streamed], func(t *testing.T) {
			url, conns, base := connServer(t, &AcceptOptions{IdleRelease: -1})
			rc := dialRaw(t, url, ExtensionName)
			rc.nc.SetDeadline(time.Now().Add(time.Minute))
			c := accepted(t, conns)
			if c.Extensions() == "" {
				t.Fatal("permessage-deflate was not negotiated")
			}
			if err := c.NetConn().(*net.TCPConn).SetWriteBuffer(64 << 10); err != nil {
				t.Fatalf("SetWriteBuffer: %v", err)
			}
			var written chan error
			if streamed {
				written = blockedStream(t, c, rc)
			} else {
				written = blockedWrite(t, c, rc, randomBytes(4<<20))
			}

			closeWithinBound(t, c)
			werr := within(t, written, 10*time.Second, "the blocked writer's return")
			if !errors.Is(werr, ErrClosed) || !streamed && !strings.Contains(werr.Error(), "Close") {
				t.Errorf("blocked writer = %v, want an error wrapping ErrClosed that names Close", werr)
			}
			if enc, dec := released(c); enc || dec {
				t.Errorf("after the cut message: live encoder %t, decoder %t; want both back in the pools", enc, dec)
			}
			if _, err := io.Copy(io.Discard, rc.br); err != nil && !strings.Contains(err.Error(), "reset") {
				t.Errorf("peer reading the rest: %v, want EOF or a reset", err)
			}
			settle(t, base)
		})
	}
}

// shortCloseBound stands for closeHandshakeTimeout in the tests whose peer
// never answers, which would otherwise each wait the full 5 seconds: what
// they prove is that Close returns at its bound, whatever the bound is.
const shortCloseBound = 500 * time.Millisecond

// closeWithinBound has c, whose peer has stopped reading, Close with its
// bound shortened to shortCloseBound, and returns Close's error once it
// returns; it fails the test if Close takes more than its bound and a
// margin for a loaded machine.
func closeWithinBound(t *testing.T, c *Conn) error {
	t.Helper()
	c.closeTimeout = shortCloseBound
	start := time.Now()
	closed := make(chan error, 1)
	go func() { closed <- c.Close(StatusGoingAway, "") }()
	err := within(t, closed, shortCloseBound+10*time.Second, "Close's return")
	if d := time.Since(start); d > shortCloseBound+5*time.Second {
		t.Errorf("Close returned after %v; its bound is %v", d, shortCloseBound)
	}
	return err
}

// blockedStream makes c stream incompressible 64 KiB writes with a
// 30-second context to rc, which reads the first fragment's header and
// then stops reading, until a write fails. It returns the first error, after
// checking that the writer's Close reports one too.
func blockedStream(t *testing.T, c *Conn, rc *rawClient) chan error {
	t.Helper()
	written := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		w, err := c.Writer(ctx, MessageBinary)
		if err != nil {
			written <- err
			return
		}
		for i := 0; err == nil; i++ {
			_, err = w.Write(randomBytes(64<<10 + i))
		}
		if w.Close() == nil {
			err = fmt.Errorf("Close of the failed stream succeeded after %w", err)
		}
		written <- err
	}()
	var hbuf [maxHeaderSize]byte
	if h, err := readHeader(rc.br, &hbuf); err != nil || !h.rsv1 || h.fin {
		t.Fatalf("peer read header %+v, %v; want the first compressed fragment", h, err)
	}
	return written
}

// TestWriteThatGivesUpWaitingLeavesTheConnectionUsable: a Write whose
// context ends while another Write's frame is held up by the peer returns
// the context's error and sends nothing; once the peer reads again, the
// held frame completes and the next message follows it intact.
func TestWriteThatGivesUpWaitingLeavesTheConnectionUsable(t *testing.T) {
	c, rc, base := stuckPeer(t)
	_, end := readLoop(c)
	written := blockedWrite(t, c, rc, make([]byte, 64<<20))

	for _, streamed := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		gaveUp := make(chan error, 1)
		go func() { gaveUp <- writeMessage(ctx, c, []byte("abandoned"), streamed) }()
		if err := within(t, gaveUp, 10*time.Second, "the waiting Write's return"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Write (streamed %t) behind a held frame = %v, want its context's deadline", streamed, err)
		}
		cancel()
	}
	if _, err := io.CopyN(io.Discard, rc.br, 64<<20-1); err != nil {
		t.Fatalf("peer reading the rest of the frame: %v", err)
	}
	if err := within(t, written, 10*time.Second, "the held Write's return"); err != nil {
		t.Fatalf("held Write: %v", err)
	}
	if err := c.Write(context.Background(), MessageText, []byte("next")); err != nil {
		t.Fatalf("Write after the held frame: %v", err)
	}
	rc.expectFrame(opText, "next")
	closeHandshake(t, c, rc, end)
	settle(t, base)
}

// TestCancellingAWriteInterruptsItsFrame: cancelling the context of a Write
// whose frame the peer has stopped taking ends it at once with an error
// wrapping context.Canceled; the peer has part of a frame, so the
// connection is closed.
func TestCancellingAWriteInterruptsItsFrame(t *testing.T) {
	c, rc, base := stuckPeer(t)
	_, end := readLoop(c)
	ctx, cancel := context.WithCancel(context.Background())
	written := make(chan error, 1)
	go func() { written <- c.Write(ctx, MessageBinary, make([]byte, 64<<20)) }()
	var hbuf [maxHeaderSize]byte
	if _, err := readHeader(rc.br, &hbuf); err != nil {
		t.Fatalf("peer read header: %v", err)
	}
	cancel()
	if err := within(t, written, 10*time.Second, "the cancelled Write's return"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Write = %v, want context.Canceled", err)
	}
	if err := c.Ping(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Ping after the cut frame = %v, want ErrClosed", err)
	}
	within(t, end, 10*time.Second, "the end of Read")
	settle(t, base)
}
