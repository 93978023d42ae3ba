package encoding

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
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

// failingCodec is a counting gzip codec whose writers fail: Write after
// failAfter bytes of a stream, and Flush and Close when failClose is set.
// It stands for an encoder that runs out of memory or hits a bug.
type failingCodec struct {
	countingCodec
	failAfter int
	failClose bool
}

var errEncoder = errors.New("encoder broke at /srv/secret/state.go:42")

func (c *failingCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	inner, err := c.countingCodec.NewWriter(w, level)
	if err != nil {
		return nil, err
	}
	return &failingWriter2{Writer: inner, c: c}, nil
}

type failingWriter2 struct {
	Writer
	c       *failingCodec
	written int
}

func (w *failingWriter2) Write(p []byte) (int, error) {
	if w.written+len(p) > w.c.failAfter {
		return 0, errEncoder
	}
	w.written += len(p)
	return w.Writer.Write(p)
}

func (w *failingWriter2) Flush() error {
	if w.c.failClose {
		return errEncoder
	}
	return w.Writer.Flush()
}

func (w *failingWriter2) Close() error {
	if w.c.failClose {
		return errEncoder
	}
	return w.Writer.Close()
}

func (w *failingWriter2) Reset(dst io.Writer) {
	w.written = 0
	w.Writer.Reset(dst)
}

// faultServer serves m wrapping h on loopback. Every request's
// responseWriter is checked once the middleware returns (panics included):
// it must be finished, holding neither encoder nor buffer, which release
// gave back. The counts of unreleased writers go to leaked.
type faultServer struct {
	*httptest.Server
	served atomic.Int64 // requests whose middleware returned
	leaked atomic.Int64 // of those, how many kept an encoder or a buffer
}

func newFaultServer(t *testing.T, m *Middleware, h http.HandlerFunc) *faultServer {
	t.Helper()
	fs := new(faultServer)
	inner := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*r.Context().Value(rwKey{}).(**responseWriter), _ = w.(*responseWriter)
		h(w, r)
	}))
	fs.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var rw *responseWriter
		r = r.WithContext(context.WithValue(r.Context(), rwKey{}, &rw))
		defer func() {
			if rw != nil && (rw.state != finished || rw.enc != nil || rw.buf != nil) {
				fs.leaked.Add(1)
			}
			fs.served.Add(1)
		}()
		inner.ServeHTTP(w, r)
	}))
	// A panicking handler is logged by net/http; the log is not the point.
	fs.Config.ErrorLog = log.New(io.Discard, "", 0)
	fs.Start()
	t.Cleanup(fs.Close)
	return fs
}

type rwKey struct{}

// waitServed waits until n requests have left the middleware.
func (fs *faultServer) waitServed(t *testing.T, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for fs.served.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("after 5s, %d of %d requests have left the middleware: a handler is stuck", fs.served.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// rawGet sends a GET for path accepting gzip over a new connection and
// returns it with the response header read.
func rawGet(t *testing.T, addr, path string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(nc, "GET %s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n", path)
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		nc.Close()
		return nil, nil, nil // the handler panicked before any byte went out
	}
	return nc, br, resp
}

// checkStillServing proves the server answers a fresh request in full after
// the fault, compressed with wantCoding.
func checkStillServing(t *testing.T, url, wantCoding string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url+"/ok", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatalf("request after the fault: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	coding := resp.Header.Get("Content-Encoding")
	if err != nil || resp.StatusCode != 200 || coding != wantCoding {
		t.Fatalf("request after the fault: status %d, coding %q, read error %v", resp.StatusCode, resp.Header.Get("Content-Encoding"), err)
	}
	if got := decodeBody(t, coding, body); len(got) != 64<<10 {
		t.Fatalf("request after the fault: %d bytes decoded, want %d", len(got), 64<<10)
	}
}

// TestFaultsLeaveServerServingWithoutLeaks puts each fault a response can
// meet through a real server: the client vanishing mid-body or mid-stream,
// the handler panicking at every stage, the handler writing to a dead
// client, and an encoder that fails. After each, the next request is
// served, goroutines settle back, every encoder taken is returned and every
// responseWriter gave back its buffer.
func TestFaultsLeaveServerServingWithoutLeaks(t *testing.T) {
	big := sampleText(64 << 10)
	gone := make(chan struct{}, 1) // the client has closed its connection
	cases := []struct {
		name  string
		codec func() Codec // nil: the counting gzip codec
		// after is the coding of the next response: "" for gzip, as
		// usual; "identity" when the codec fails on every response and
		// the middleware sends the next one uncompressed.
		after   string
		handler http.HandlerFunc
		client  func(t *testing.T, addr string)
	}{
		{
			name: "client disconnects mid-response",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				for i := 0; i < 4096; i++ { // 256 MiB, far more than the socket buffers
					if _, err := w.Write(sampleText(64 << 10)); err != nil {
						return
					}
				}
			},
			client: func(t *testing.T, addr string) {
				nc, br, _ := rawGet(t, addr, "/")
				io.ReadFull(br, make([]byte, 1000))
				nc.Close()
			},
		},
		{
			name: "client disconnects mid-flush (SSE)",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for i := 0; ; i++ {
					if _, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", i, big[:2000]); err != nil {
						return
					}
					if err := http.NewResponseController(w).Flush(); err != nil {
						return
					}
					time.Sleep(time.Millisecond)
				}
			},
			client: func(t *testing.T, addr string) {
				nc, br, resp := rawGet(t, addr, "/")
				if resp.Header.Get("Content-Encoding") != "gzip" {
					t.Errorf("SSE not compressed: %v", resp.Header)
				}
				io.ReadFull(br, make([]byte, 100)) // the first events arrived
				nc.Close()
			},
		},
		{
			name:    "panic before the first Write",
			handler: func(w http.ResponseWriter, r *http.Request) { panic("before") },
			client:  func(t *testing.T, addr string) { getAndDiscard(addr) },
		},
		{
			name: "panic during the first Write (body still buffered)",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Write(big[:10<<10])
				panic("during")
			},
			client: func(t *testing.T, addr string) { getAndDiscard(addr) },
		},
		{
			name: "panic after the first Write went out",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Write(big)
				w.(http.Flusher).Flush()
				panic("after")
			},
			client: func(t *testing.T, addr string) { getAndDiscard(addr) },
		},
		{
			name: "handler writes after the client is gone",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Write(big)
				w.(http.Flusher).Flush()
				<-gone
				<-r.Context().Done() // net/http noticed the close
				for range 100 {
					w.Write(big) // errors are ignored, as careless handlers do
				}
				w.(http.Flusher).Flush()
			},
			client: func(t *testing.T, addr string) {
				nc, br, _ := rawGet(t, addr, "/")
				io.ReadFull(br, make([]byte, 100))
				nc.Close()
				gone <- struct{}{}
			},
		},
		{
			name:    "encoder fails on Write",
			codec:   func() Codec { return &failingCodec{failAfter: 100 << 10} },
			handler: writeBody("text/plain", sampleText(1<<20)),
			client:  func(t *testing.T, addr string) { getAndDiscard(addr) },
		},
		{
			name:    "encoder fails on Close (whole body buffered)",
			codec:   func() Codec { return &failingCodec{failAfter: 1 << 30, failClose: true} },
			after:   "identity",
			handler: writeBody("text/plain", big),
			client:  func(t *testing.T, addr string) { getAndDiscard(addr) },
		},
		{
			name:  "encoder fails on Flush (SSE)",
			codec: func() Codec { return &failingCodec{failAfter: 1 << 30, failClose: true} },
			after: "identity",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for i := 0; i < 100; i++ {
					fmt.Fprintf(w, "data: %d\n\n", i)
					if http.NewResponseController(w).Flush() != nil {
						return
					}
				}
			},
			client: func(t *testing.T, addr string) { getAndDiscard(addr) },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var codec Codec = new(countingCodec)
			if tc.codec != nil {
				codec = tc.codec()
			}
			m := mustNew(t, Config{Codings: []Coding{{Codec: codec}}})
			base := runtime.NumGoroutine()
			srv := newFaultServer(t, m, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/ok" {
					writeBody("text/plain", big)(w, r)
					return
				}
				tc.handler(w, r)
			})
			tc.client(t, srv.Listener.Addr().String())
			srv.waitServed(t, 1)
			want := "gzip"
			if tc.after == "identity" {
				want = ""
			}
			checkStillServing(t, srv.URL, want)
			srv.waitServed(t, 2)
			if n := srv.leaked.Load(); n != 0 {
				t.Errorf("%d responseWriters kept an encoder or a buffer after the middleware returned", n)
			}
			made, released := counts(codec)
			if made == 0 || made != released {
				t.Errorf("encoders: %d taken, %d returned to the pool", made, released)
			}
			srv.CloseClientConnections()
			http.DefaultTransport.(*http.Transport).CloseIdleConnections()
			// base counted no server goroutine; the server's listener loop
			// is the one that may remain.
			n := soak.SettleGoroutines(base+1, 5*time.Second)
			if n > base+1 {
				t.Errorf("goroutines: %d before, %d five seconds after the fault\n%s", base, n, soak.Stacks())
			}
			t.Logf("encoders taken/returned %d/%d; goroutines %d before, %d after", made, released, base, n)
		})
	}
}

// getAndDiscard sends one request accepting gzip and reads whatever comes.
func getAndDiscard(addr string) {
	req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

func counts(c Codec) (made, released int64) {
	switch c := c.(type) {
	case *countingCodec:
		return c.made.Load(), c.released.Load()
	case *failingCodec:
		return c.made.Load(), c.released.Load()
	}
	panic("not a counting codec: " + strings.TrimSpace(c.Name()))
}
