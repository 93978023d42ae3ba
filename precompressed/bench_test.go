package precompressed

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/encoding"
)

// discard is a ResponseWriter that keeps nothing, so that benchmarks
// measure the handler.
type discard struct {
	h http.Header
	n int64
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }

// BenchmarkServe compares, on one 100 KB script, http.FileServerFS sending
// it uncompressed and sending the br sidecar's bytes as a plain file, this
// package sending its br sidecar, this package sending the zstd and br
// copies it compressed once into memory (after the warm-up that has them
// recompressed at the best level, as a busy server sends them), and the
// usual setup of compressing on every request (encoding.Handler around
// http.FileServerFS).
func BenchmarkServe(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 100<<10; i++ {
		fmt.Fprintf(&sb, "function f%d(a, b) { return a * %d + b.length - %q; }\n", i, i*7919%1000, strconv.Itoa(i*31))
	}
	js := []byte(sb.String())
	br := compress(b, "br", js)
	withSidecar := fstest.MapFS{"app.js": file(js), "app.js.br": file(br)}
	plain := fstest.MapFS{"app.js": file(js)}
	// The sidecar's bytes as a plain file: the cost floor for sending them.
	sameBytes := fstest.MapFS{"app.js": file(br)}
	cases := []struct {
		name   string
		h      http.Handler
		accept string
	}{
		{"FileServerFS/identity", http.FileServerFS(plain), ""},
		{"FileServerFS/br-bytes-as-plain-file", http.FileServerFS(sameBytes), ""},
		{"precompressed/sidecar-br", FileServer(withSidecar, Config{}), "br"},
		{"precompressed/fallback-zstd", FileServer(plain, Config{}), "zstd"},
		{"precompressed/fallback-br", FileServer(plain, Config{}), "br"},
		{"encoding.Handler(FileServerFS)/zstd", encoding.Handler(http.FileServerFS(plain)), "zstd"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/app.js", nil)
			if c.accept != "" {
				r.Header.Set("Accept-Encoding", c.accept)
			}
			if s, ok := c.h.(*server); ok {
				warmUp(b, s, "/app.js", "Accept-Encoding", c.accept)
			}
			w := &discard{h: http.Header{}}
			c.h.ServeHTTP(w, r) // warm the caches
			sent := w.n
			b.ReportAllocs()
			b.SetBytes(int64(len(js)))
			for b.Loop() {
				clear(w.h)
				w.n = 0
				c.h.ServeHTTP(w, r)
			}
			if w.n != sent || sent == 0 {
				b.Fatalf("sent %d bytes, the first request %d", w.n, sent)
			}
			b.ReportMetric(float64(sent), "bytes-sent")
		})
	}
}

// BenchmarkFallbackRecompress measures what the background recompression
// of a file costs against what it saves: each coding's codec at its best
// level over staticTree (ns/op is the whole tree, ns/file one file on
// average, ns/KB per KB of file) and the bytes one response of each file
// saves over the default level the fallback compresses at first
// (saved-B/response, summed over the tree, and saved-% of the
// default-level bytes). One recompression pays for itself in the bytes of
// the responses that follow it. Timings come from a busy 2-core machine:
// compare them within one run.
//
//	go test -run '^$' -bench FallbackRecompress -benchtime 3x ./precompressed
func BenchmarkFallbackRecompress(b *testing.B) {
	tree := staticTree(b)
	total := 0
	for _, src := range tree {
		total += len(src)
	}
	for _, codec := range []encoding.Codec{encoding.Zstd(), encoding.Brotli(), encoding.Gzip()} {
		_, best, def := codec.Levels()
		encode := func(src []byte, level int) int {
			out, err := codec.(encoding.AppendEncoder).AppendEncode(nil, src, level)
			if err != nil {
				b.Fatal(err)
			}
			return len(out)
		}
		var defBytes, bestBytes int
		for _, src := range tree {
			defBytes += encode(src, def)
		}
		b.Run(codec.Name(), func(b *testing.B) {
			for b.Loop() {
				bestBytes = 0
				for _, src := range tree {
					bestBytes += encode(src, best)
				}
			}
			perTree := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(perTree/float64(len(tree)), "ns/file")
			b.ReportMetric(perTree/float64(total>>10), "ns/KB")
			b.ReportMetric(float64(defBytes-bestBytes), "saved-B/response")
			b.ReportMetric(100*float64(defBytes-bestBytes)/float64(defBytes), "saved-%")
		})
	}
}
