package wsdeflate

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// idlePairBound is what a connection pair (client and server endpoint, with
// the HTTP server's state for it) may keep once idle, with context takeover
// at 15 window bits in both directions, whatever the messages before: the
// bound the package documentation states.
const idlePairBound = 256 << 10

// announcedFrameBound is what a server connection may allocate in all,
// handshake included, when a frame header announces a payload that never
// comes.
const announcedFrameBound = 64 << 10

// heldBuffers reports the capacity of c's message buffers.
func heldBuffers(c *Conn) int {
	c.msgMu.Lock()
	n := cap(c.wbuf)
	c.msgMu.Unlock()
	c.dmu.Lock()
	n += cap(c.rbuf) + cap(c.mbuf)
	c.dmu.Unlock()
	return n
}

// waitIdle waits up to ten seconds for c to have dropped its message
// buffers and, if codec is set, released its live encoder and decoder.
func waitIdle(t *testing.T, c *Conn, codec bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		enc, dec := liveState(c)
		held := heldBuffers(c)
		if (!codec || !enc && !dec) && held == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("10s after the last message: live encoder %t, decoder %t, %d bytes of message buffers; want none", enc, dec, held)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestIdleConnectionReturnsToIdleMemoryAfterLargeMessage: after a 1 MiB
// message each way (incompressible, so the payload, inflate and write
// buffers all reach 1 MiB), a connection that has gone idle drops its
// buffers as well as its codec state, and the pair's retained heap is back
// within idlePairBound instead of keeping megabytes for its life. IdleRelease
// -1 keeps the codec live but must still drop the buffers.
func TestIdleConnectionReturnsToIdleMemoryAfterLargeMessage(t *testing.T) {
	for _, keepCodec := range []bool{false, true} {
		name := map[bool]string{false: "release codec", true: "IdleRelease -1"}[keepCodec]
		t.Run(name, func(t *testing.T) {
			base := runtime.NumGoroutine()
			release := 20 * time.Millisecond
			if keepCodec {
				release = -1
			}
			const pairs = 4
			servers := make(chan *Conn, pairs)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c, err := Accept(w, r, &AcceptOptions{ReadLimit: 2 << 20, IdleRelease: release})
				if err != nil {
					return
				}
				servers <- c
				for {
					typ, msg, err := c.Read(context.Background())
					if err != nil {
						return
					}
					if c.Write(context.Background(), typ, msg) != nil {
						return
					}
				}
			}))
			defer srv.Close()
			url := "ws" + strings.TrimPrefix(srv.URL, "http")
			msg := make([]byte, 1<<20)
			r := rand.New(rand.NewPCG(1, 2))
			for i := range msg {
				msg[i] = byte(r.Uint32())
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()

			before := heapInUse()
			clients := make([]*Conn, pairs)
			for i := range clients {
				c, _, err := Dial(ctx, url, &DialOptions{ReadLimit: 2 << 20, IdleRelease: release})
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				clients[i] = c
				if err := c.Write(ctx, MessageBinary, msg); err != nil {
					t.Fatalf("Write: %v", err)
				}
				if _, got, err := c.Read(ctx); err != nil || len(got) != len(msg) {
					t.Fatalf("echo of 1 MiB: %d bytes, %v", len(got), err)
				}
			}
			for _, c := range clients {
				for _, c := range []*Conn{c, <-servers} {
					waitIdle(t, c, !keepCodec)
					if enc, dec := liveState(c); keepCodec && (!enc || !dec) {
						t.Errorf("IdleRelease -1: live encoder %t, decoder %t; want both kept", enc, dec)
					}
				}
			}
			idle := heapInUse()
			runtime.KeepAlive(msg) // counted in before and idle alike
			// What the pairs hold is what came with them and what goes once
			// they are closed and their goroutines have ended. Earlier tests'
			// connections may still be winding down and free memory during
			// either interval, which inflates that difference only: take the
			// smaller.
			for _, c := range clients {
				c.Close(StatusNormalClosure, "")
			}
			srv.Close()
			if n := soak.SettleGoroutines(base, 5*time.Second); n > base {
				t.Errorf("goroutines: %d before, %d after\n%s", base, n, soak.Stacks())
			}
			per := (float64(idle) - float64(max(before, heapInUse()))) / pairs
			bound := idlePairBound
			if keepCodec {
				// Each endpoint also keeps its live encoder and reader.
				bound += 2 * (liveEncoderBound + liveReaderBound)
			}
			if per > float64(bound) {
				t.Errorf("an idle pair keeps %.0f KiB after a 1 MiB message each way; the bound is %d KiB", per/1024, bound>>10)
			}
			t.Logf("idle pair after 1 MiB each way: %.1f KiB retained", per/1024)
		})
	}
}

// stallListener hands out connections that report when the server reads
// again after it has consumed every byte the client sent: the server has
// then handled all of it and waits for more.
type stallListener struct {
	net.Listener
	conns chan *stallConn
}

type stallConn struct {
	net.Conn
	read    atomic.Int64
	sent    atomic.Int64 // what the client has written
	waiting chan struct{}
}

func (l *stallListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc := &stallConn{Conn: nc, waiting: make(chan struct{}, 1)}
	sc.sent.Store(-1)
	l.conns <- sc
	return sc, nil
}

func (c *stallConn) Read(p []byte) (int, error) {
	if s := c.sent.Load(); s >= 0 && c.read.Load() >= s {
		select {
		case c.waiting <- struct{}{}:
		default:
		}
	}
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// TestAnnouncedPayloadIsNotAllocatedBeforeItArrives: a 14-byte header
// announcing a 2 MiB payload (within the read limit) and then nothing must
// not make the server allocate 2 MiB: the payload buffer grows as bytes
// arrive. Each stalled connection, handshake included, allocates at most
// announcedFrameBound.
func TestAnnouncedPayloadIsNotAllocatedBeforeItArrives(t *testing.T) {
	for _, compressed := range []bool{false, true} {
		t.Run(map[bool]string{false: "uncompressed", true: "compressed"}[compressed], func(t *testing.T) {
			goroutinesReturn(t)
			ln := &stallListener{conns: make(chan *stallConn, 16)}
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c, err := Accept(w, r, &AcceptOptions{ReadLimit: 4 << 20})
				if err != nil {
					return
				}
				c.Read(context.Background())
			}))
			ln.Listener = srv.Listener
			srv.Listener = ln
			srv.Start()
			defer srv.Close()
			url := "ws" + strings.TrimPrefix(srv.URL, "http")
			ext := ""
			if compressed {
				ext = ExtensionName
			}
			const conns = 8
			header := appendHeader(nil, header{fin: true, op: opBinary, rsv1: compressed, masked: true, length: 2 << 20})
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			clients := make([]*rawClient, conns)
			for i := range clients {
				rc := dialRaw(t, url, ext)
				clients[i] = rc
				sc := <-ln.conns
				// The handshake request has been read whole: Accept answered it.
				sc.sent.Store(sc.read.Load() + int64(len(header)))
				if _, err := rc.nc.Write(header); err != nil {
					t.Fatalf("write header: %v", err)
				}
				select {
				case <-sc.waiting:
				case <-time.After(10 * time.Second):
					t.Fatal("the server did not read the header within 10s")
				}
			}
			runtime.ReadMemStats(&m1)
			per := float64(m1.TotalAlloc-m0.TotalAlloc) / conns
			if per > announcedFrameBound {
				t.Errorf("a server connection stalled in a frame announcing 2 MiB allocated %.0f KiB; the bound is %d KiB", per/1024, announcedFrameBound>>10)
			}
			t.Logf("allocated per stalled connection, handshake included: %.1f KiB", per/1024)
			for _, rc := range clients {
				rc.nc.Close()
			}
		})
	}
}
