package soak_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/precompressed"
)

// codings are the Accept-Encoding values the HTTP clients cycle through.
var codings = []string{"zstd", "br", "gzip", "deflate", "identity"}

// text returns n bytes of compressible JSON-like text that differs by seed.
func text(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 11))
	words := []string{`"id":`, `"name":`, `"squeeze"`, `"vary"`, `true,`, `null,`, "{", "}", "[", "],", "\n"}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
		fmt.Fprintf(&b, "%d,", rng.IntN(1000))
	}
	return b.Bytes()[:n]
}

// encode compresses b in coding, as a sidecar generator would.
func encode(coding string, b []byte) []byte {
	var out bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&out)
	case "br":
		w = brotli.NewWriter(&out)
	case "zstd":
		w, _ = zstd.NewWriter(&out) // fails only on bad options
	}
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// decode undoes coding (the response's Content-Encoding).
func decode(coding string, b []byte) ([]byte, error) {
	var r io.Reader
	var err error
	switch coding {
	case "":
		return b, nil
	case "gzip":
		r, err = gzip.NewReader(bytes.NewReader(b))
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(b))
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "zstd":
		d, derr := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1))
		if derr != nil {
			return nil, derr
		}
		defer d.Close()
		r = d
	default:
		return nil, fmt.Errorf("unknown coding %q", coding)
	}
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// site is the static tree: a few files with all three sidecars, and many
// without any, which the fallback cache compresses once and keeps within
// its budget.
type site struct {
	fs     fstest.MapFS
	bodies map[string][]byte // by URL path
	plain  []string          // URL paths of the files without sidecars
	sided  []string          // URL paths of the files with sidecars
}

func newSite() *site {
	s := &site{fs: fstest.MapFS{}, bodies: map[string][]byte{}}
	mod := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(name string, b []byte) { s.fs[name] = &fstest.MapFile{Data: b, ModTime: mod} }
	for i := range 4 {
		name := fmt.Sprintf("app%d.js", i)
		b := text(uint64(100+i), 40<<10)
		add(name, b)
		for _, c := range []struct{ coding, ext string }{{"zstd", ".zst"}, {"br", ".br"}, {"gzip", ".gz"}} {
			add(name+c.ext, encode(c.coding, b))
		}
		s.bodies["/static/"+name] = b
		s.sided = append(s.sided, "/static/"+name)
	}
	// 64 files of 24 KiB against a 256 KiB cache: the cache must evict.
	for i := range 64 {
		name := fmt.Sprintf("style%02d.css", i)
		b := text(uint64(200+i), 24<<10)
		add(name, b)
		s.bodies["/static/"+name] = b
		s.plain = append(s.plain, "/static/"+name)
	}
	return s
}

// sseEvents is how many events /sse sends, each flushed.
const sseEvents = 8

// newMux is the service under soak: an API behind the encoding middleware
// (with request decoding), an SSE stream, the static tree and the
// WebSocket echo.
func newMux(s *site, cacheBytes int64, api []byte, ws http.Handler) http.Handler {
	mw, err := encoding.New(encoding.Config{DecodeRequests: true})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api", mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, "bad body", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(api)
	})))
	mux.Handle("/sse", mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := range sseEvents {
			fmt.Fprintf(w, "id: %d\ndata: %s\n\n", i, api[:500])
			if err := rc.Flush(); err != nil {
				return
			}
		}
	})))
	// The soak asks whether memory grows with traffic. The fallback's
	// background recompression at the best levels (on by default) is a
	// bounded one-off per file, whose encoders land in whichever quarter
	// the queue reaches them and read as growth: it is off here, and
	// precompressed's own tests cover it.
	fs := precompressed.FileServer(s.fs, precompressed.Config{FallbackCacheBytes: cacheBytes, FallbackRecompressAfter: -1})
	mux.Handle("/static/", http.StripPrefix("/static", fs))
	mux.Handle("/ws", ws)
	return mux
}

// checkSSE reads an event stream and reports whether all events arrived.
func checkSSE(body io.Reader) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "id: ") {
			n++
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if n != sseEvents {
		return fmt.Errorf("%d of %d events", n, sseEvents)
	}
	return nil
}
