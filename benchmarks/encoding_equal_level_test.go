package benchmarks

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/CAFxX/httpcompression"
	hczstd "github.com/CAFxX/httpcompression/contrib/klauspost/zstd"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// BenchmarkEqualLevel serves the repository corpus (every kind of body,
// cut at 256 B, 1, 4 and 8 KiB from two offsets of each source) through
// squeeze (its built-in codecs as shipped, with its own encoders where
// they serve), squeeze with LibraryEncoders where an own encoder serves
// that level,
// gzhttp, httpcompression and chi's Compress, every one at the same codec
// and level: zstd 1 (klauspost's SpeedFastest; gzhttp's
// ZstdCompressionLevel(SpeedFastest)) and 3 (SpeedDefault), gzip 5 (chi's
// is compress/flate's level 5), br 3 and 4. Each sub-benchmark serves the
// bodies of one kind and size in turn, so ns/op is the mean time per
// response over them and out-B the mean body sent. Every output is decoded
// and compared with its body before the timed loop.
//
//	for round in $(seq 5); do go test -run '^$' -bench EqualLevel -benchtime 0.03s -count 1 .; done > eq.txt
//	benchstat -col /impl eq.txt
//
// Rounds of -count 1 interleave the implementations: -count 5 would run
// each sub-benchmark's five back to back, all in the same burst of noise
// on a shared machine. cmd/report runs it so and tabulates, per kind,
// squeeze against the fastest peer and the own encoders against the
// library.
func BenchmarkEqualLevel(b *testing.B) {
	kinds := equalLevelBodies(b)
	for _, c := range equalLevelCodings() {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", c.name)
		var impls []encodingImpl
		for _, codec := range []struct {
			name  string
			codec encoding.Codec
		}{{"squeeze", c.codec}, {"squeeze-library", encoding.LibraryEncoders(c.codec)}} {
			if codec.name == "squeeze-library" && !c.own {
				continue
			}
			m, err := encoding.New(encoding.Config{
				Codings: []encoding.Coding{{Codec: codec.codec, Level: c.level}},
				MinSize: equalMinSize,
			})
			if err != nil {
				b.Fatal(err)
			}
			impls = append(impls, middlewareImpl(codec.name, m.Handler, c.decode))
		}
		for _, p := range c.peers {
			wrap, err := p.wrap()
			if err != nil {
				b.Fatalf("%s %s: %v", p.name, c.name, err)
			}
			impls = append(impls, middlewareImpl(p.name, wrap, c.decode))
		}
		for _, k := range kinds {
			for _, size := range equalSizes {
				bodies := k.bodies[size]
				for _, impl := range impls {
					serves := make([]func(*sinkWriter), len(bodies))
					for i, body := range bodies {
						serves[i] = impl.prepare(body, r)
					}
					name := fmt.Sprintf("coding=%s/level=%d/kind=%s/size=%d/impl=%s", c.name, c.level, k.kind, size, impl.name)
					b.Run(name, func(b *testing.B) { serveEach(b, serves, impl, c.name, bodies) })
				}
			}
		}
	}
}

// equalMinSize is every middleware's MinSize in BenchmarkEqualLevel, so
// that all of them compress the corpus's smallest bodies.
const equalMinSize = 256

// equalSizes are the body sizes of BenchmarkEqualLevel.
var equalSizes = []int{256, 1 << 10, 4 << 10, 8 << 10}

// serveEach checks every body's output once, then serves them in turn, one
// response per iteration, and reports the mean body sent (out-B).
func serveEach(b *testing.B, serves []func(*sinkWriter), impl encodingImpl, coding string, bodies []encodingBody) {
	if len(serves) == 0 {
		b.Skip("no body of this kind and size")
	}
	w := &sinkWriter{h: http.Header{}}
	var in, out int64
	for i, serve := range serves {
		w.reset()
		checkEncoded(b, w, serve, impl, coding, bodies[i].data)
		in, out = in+int64(len(bodies[i].data)), out+w.n
	}
	b.ReportAllocs()
	b.SetBytes(in / int64(len(serves)))
	i := 0
	for b.Loop() {
		w.reset()
		serves[i](w)
		if i++; i == len(serves) {
			i = 0
		}
	}
	b.ReportMetric(float64(out)/float64(len(serves)), "out-B")
}

// equalLevelCoding is one coding and level of BenchmarkEqualLevel.
type equalLevelCoding struct {
	encodingCoding
	own bool // whether squeeze's own encoders serve bodies at this level
}

// equalLevelCodings are BenchmarkEqualLevel's codings and levels, the
// decoders taken from BenchmarkMiddleware's.
func equalLevelCodings() []equalLevelCoding {
	base := map[string]encodingCoding{}
	for _, c := range encodingCodings() {
		base[c.name] = c
	}
	zstdAt := func(speed zstd.EncoderLevel) []encodingPeer {
		return []encodingPeer{
			{name: "gzhttp", wrap: func() (func(http.Handler) http.Handler, error) {
				wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(equalMinSize), gzhttp.EnableZstd(true),
					gzhttp.ZstdCompressionLevel(int(speed)))
				if err != nil {
					return nil, err
				}
				return func(h http.Handler) http.Handler { return wrap(h) }, nil
			}},
			{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
				c, err := hczstd.New(zstd.WithEncoderLevel(speed))
				if err != nil {
					return nil, err
				}
				return httpcompression.Adapter(httpcompression.ZstandardCompressor(c), httpcompression.MinSize(equalMinSize))
			}},
		}
	}
	brAt := func(q int) []encodingPeer {
		return []encodingPeer{{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
			return httpcompression.Adapter(httpcompression.BrotliCompressionLevel(q), httpcompression.MinSize(equalMinSize))
		}}}
	}
	gzipPeers := []encodingPeer{
		{name: "gzhttp", wrap: func() (func(http.Handler) http.Handler, error) {
			wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(equalMinSize), gzhttp.CompressionLevel(5))
			if err != nil {
				return nil, err
			}
			return func(h http.Handler) http.Handler { return wrap(h) }, nil
		}},
		{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
			return httpcompression.Adapter(httpcompression.GzipCompressionLevel(5), httpcompression.MinSize(equalMinSize))
		}},
		// chi compresses every size, with compress/flate at the level given.
		{name: "chi", wrap: func() (func(http.Handler) http.Handler, error) { return middleware.Compress(5), nil }},
	}
	at := func(name string, level int, own bool, peers []encodingPeer) equalLevelCoding {
		c := base[name]
		c.level, c.peers = level, peers
		return equalLevelCoding{c, own}
	}
	return []equalLevelCoding{
		at("zstd", 1, false, zstdAt(zstd.SpeedFastest)),
		at("zstd", 3, false, zstdAt(zstd.SpeedDefault)),
		at("gzip", 5, true, gzipPeers),
		at("br", 3, false, brAt(3)),
		at("br", 4, true, brAt(4)),
	}
}

// equalKind is one kind of body of the corpus, its cuts by size.
type equalKind struct {
	kind   string
	bodies map[int][]encodingBody
}

// equalLevelBodies returns every cut of the repository corpus at
// equalSizes, by kind.
func equalLevelBodies(b *testing.B) []equalKind {
	cuts, err := corpus.Bodies()
	if err != nil {
		b.Fatal(err)
	}
	var kinds []equalKind
	for _, c := range cuts {
		if !slices.Contains(equalSizes, len(c.Data)) {
			continue
		}
		if len(kinds) == 0 || kinds[len(kinds)-1].kind != c.Kind {
			kinds = append(kinds, equalKind{c.Kind, map[int][]encodingBody{}})
		}
		k := &kinds[len(kinds)-1]
		k.bodies[len(c.Data)] = append(k.bodies[len(c.Data)], encodingBody{c.Name(), kindContentType(c.Kind), c.Data})
	}
	return kinds
}

// kindContentType is the Content-Type a server sends with a body of kind.
func kindContentType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "json"), kind == "geojson":
		return "application/json"
	case strings.HasPrefix(kind, "css"):
		return "text/css; charset=utf-8"
	case strings.HasPrefix(kind, "js"):
		return "text/javascript; charset=utf-8"
	case kind == "html":
		return "text/html; charset=utf-8"
	case kind == "svg":
		return "image/svg+xml"
	}
	// Markdown too: chi's Compress leaves text/markdown alone, and every
	// middleware must compress every body for the times to compare.
	return "text/plain; charset=utf-8"
}
