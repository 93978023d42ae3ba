package encoding

import (
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
)

// countingCodec wraps gzip and counts writers made and writers released to
// the pool (Reset(nil)), to prove that every path gives them back. It is
// also the plug-in point a user's own Codec would take.
type countingCodec struct {
	made, released atomic.Int64
}

func (c *countingCodec) Name() string                { return "gzip" }
func (c *countingCodec) Levels() (min, max, def int) { return Gzip().Levels() }
func (c *countingCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	inner, err := Gzip().NewWriter(w, level)
	if err != nil {
		return nil, err
	}
	c.made.Add(1)
	return &countingWriter{Writer: inner, c: c, live: true}, nil
}

type countingWriter struct {
	Writer
	c    *countingCodec
	live bool
}

func (w *countingWriter) Reset(dst io.Writer) {
	if dst == nil && w.live {
		w.c.released.Add(1)
		w.live = false
	} else if dst != nil && !w.live {
		w.c.made.Add(1) // taken from the pool again
		w.live = true
	}
	w.Writer.Reset(dst)
}

// Pooled encoders go back on every path: a normal end, a handler panic
// after streaming started, and a client that went away.
func TestEncodersReturnToPoolOnEveryPath(t *testing.T) {
	codec := new(countingCodec)
	m := mustNew(t, Config{Codings: []Coding{{Codec: codec}}, BufferSize: 4096})
	big := sampleText(64 << 10)
	handlers := map[string]http.HandlerFunc{
		"normal": writeBody("text/plain", big),
		"panic after streaming": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(big)
			panic(http.ErrAbortHandler)
		},
		"panic before writing": func(w http.ResponseWriter, r *http.Request) { panic("boom") },
		"flush then return":    func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")); w.(http.Flusher).Flush() },
	}
	for name, h := range handlers {
		func() {
			defer func() { recover() }()
			serve(t, m, h, "GET", "Accept-Encoding: gzip")
		}()
		if made, released := codec.made.Load(), codec.released.Load(); made != released {
			t.Fatalf("%s: %d encoders taken, %d returned", name, made, released)
		}
	}
	// A client gone: every write fails.
	rec := &failingWriter{header: http.Header{}}
	r := serveRequest("GET", "Accept-Encoding: gzip")
	m.Handler(writeBody("text/plain", big)).ServeHTTP(rec, r)
	if made, released := codec.made.Load(), codec.released.Load(); made != released || made == 0 {
		t.Fatalf("client gone: %d encoders taken, %d returned", made, released)
	}
}

type failingWriter struct{ header http.Header }

func (f *failingWriter) Header() http.Header       { return f.header }
func (f *failingWriter) WriteHeader(int)           {}
func (f *failingWriter) Write([]byte) (int, error) { return 0, errors.New("connection reset") }

// A goroutine the handler left behind must not write into another request's
// response.
func TestWriteAfterReturnFailsAndLeaksNothing(t *testing.T) {
	m := mustNew(t, Config{})
	var leaked http.ResponseWriter
	serve(t, m, func(w http.ResponseWriter, r *http.Request) { leaked = w; io.WriteString(w, "one") }, "GET")
	next := serve(t, m, func(w http.ResponseWriter, r *http.Request) {
		if _, err := leaked.Write([]byte("LEAK")); err == nil {
			t.Error("a write after the handler returned succeeded")
		}
		io.WriteString(w, "two")
	}, "GET")
	if next.Body.String() != "two" {
		t.Fatalf("second response body %q", next.Body.String())
	}
}
