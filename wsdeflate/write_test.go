package wsdeflate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// writeCounter is a net.Conn that counts the writes it is given.
type writeCounter struct {
	net.Conn
	writes atomic.Int64
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes.Add(1)
	return w.Conn.Write(p)
}

// TestMessageFrameLeavesInOneWrite: Write hands a message's frame to the
// socket in one write, header and payload together, whether it fits the
// connection's buffer or not: compressed messages and every message a
// client masks (over HTTP/2 each write to the stream is a round trip
// through the connection's goroutine; over TLS, a record and a system call).
func TestMessageFrameLeavesInOneWrite(t *testing.T) {
	p := Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}
	for _, tc := range []struct {
		client     bool
		compressed bool
		size       int
	}{
		{false, true, 1 << 10},
		{false, true, 256 << 10},
		{true, true, 1 << 10},
		{true, true, 256 << 10},
		{true, false, 1 << 10},
		{true, false, 64 << 10},
		{false, false, 1 << 10},
	} {
		t.Run(fmt.Sprintf("client=%t/compressed=%t/size=%d", tc.client, tc.compressed, tc.size), func(t *testing.T) {
			a, b := net.Pipe()
			defer a.Close()
			defer b.Close()
			sock := &writeCounter{Conn: a}
			opts := connOptions{idleRelease: -1}
			if err := opts.check("test"); err != nil {
				t.Fatal(err)
			}
			var params *Params
			if tc.compressed {
				params = &p
			}
			w := newConn(sock, bufio.NewReaderSize(sock, 4<<10), bufio.NewWriterSize(sock, 4<<10), connConfig{connOptions: opts, client: tc.client, params: params})
			r := newConn(b, bufio.NewReaderSize(b, 4<<10), bufio.NewWriterSize(b, 4<<10), connConfig{connOptions: opts, client: !tc.client, params: params})
			msg := jsonMessage(7, tc.size)
			if tc.size > 64<<10 {
				msg = append(msg, randomBytes(32<<10)...) // a compressed frame well past the buffer
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			got := make(chan []byte, 1)
			go func() {
				_, m, err := r.Read(ctx)
				if err != nil {
					t.Error(err)
				}
				got <- m
			}()
			if err := w.Write(ctx, MessageBinary, msg); err != nil {
				t.Fatal(err)
			}
			if m := <-got; !bytes.Equal(m, msg) {
				t.Fatalf("peer read %d bytes, want the %d written", len(m), len(msg))
			}
			if n := sock.writes.Load(); n != 1 {
				t.Errorf("a message of %d bytes reached the socket in %d writes, want 1", len(msg), n)
			}
		})
	}
}

// TestMessageCostsOnlyItsCopy: in steady state a message written and read
// on a Conn allocates only the copy Read returns, which is the caller's:
// the frame buffers, the codec and the watch that applies Read's context
// are the connection's own.
func TestMessageCostsOnlyItsCopy(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items on purpose under the race detector")
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	opts := connOptions{idleRelease: -1}
	if err := opts.check("test"); err != nil {
		t.Fatal(err)
	}
	p := Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}
	client := newConn(a, bufio.NewReader(a), bufio.NewWriter(a), connConfig{connOptions: opts, client: true, params: &p})
	server := newConn(b, bufio.NewReader(b), bufio.NewWriter(b), connConfig{connOptions: opts, params: &p})
	ctx := context.Background()
	next, written := make(chan []byte), make(chan error)
	defer close(next)
	go func() {
		for m := range next {
			written <- client.Write(ctx, MessageText, m)
		}
	}()
	msgs := messages(8, 1024)
	i := 0
	step := func() {
		m := msgs[i%len(msgs)]
		i++
		next <- m
		if _, got, err := server.Read(ctx); err != nil || !bytes.Equal(got, m) {
			t.Fatalf("read %d bytes, %v", len(got), err)
		}
		if err := <-written; err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		step() // grow the buffers
	}
	if n := testing.AllocsPerRun(200, step); n > 1 {
		t.Errorf("%.1f allocations per message, want 1: the copy Read returns", n)
	}
}
