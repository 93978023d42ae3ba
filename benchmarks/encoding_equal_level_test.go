package benchmarks

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/CAFxX/httpcompression"
	hczstd "github.com/CAFxX/httpcompression/contrib/klauspost/zstd"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// BenchmarkEqualLevel serves the repository corpus (every kind of body,
// each source cut end to end into bodies of 256 B, 1, 4 and 8 KiB) through
// squeeze (its built-in codecs as shipped, with its own encoders where
// they serve), squeeze with LibraryEncoders where an own encoder serves
// that level,
// gzhttp, httpcompression and chi's Compress, every one at the same codec
// and level: zstd 1 (klauspost's SpeedFastest; gzhttp's
// ZstdCompressionLevel(SpeedFastest)) and 3 (SpeedDefault), gzip 5 (chi's
// is compress/flate's level 5), br 3 and 4. Every output is decoded and
// compared with its body before the timed loop.
//
// Each sub-benchmark is one coding, level, size and implementation, and
// one iteration serves every body of that size once, kind after kind, so
// that no body comes back until all the others have been sent, as in a
// service whose responses differ. (Serving a kind's few bodies over and
// over lets the processor keep what those bodies need from one response to
// the next, in its caches and branch predictors, which lowers every
// implementation's time by an amount that differs between them.) ns/op,
// B/op, allocs/op and MB/s are per pass; ns/KIND is the kind's mean time
// per response, timed around its bodies within each pass, and out-B/KIND
// its mean body sent.
//
//	for round in $(seq 5); do go test -run '^$' -bench EqualLevel -benchtime 0.5s -count 1 .; done > eq.txt
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
		for _, size := range equalSizes {
			for _, impl := range impls {
				var served []kindServes
				for _, k := range kinds {
					bodies := k.bodies[size]
					if len(bodies) == 0 {
						continue
					}
					ks := kindServes{kind: k.kind, bodies: bodies}
					for _, body := range bodies {
						ks.serves = append(ks.serves, impl.prepare(body, r))
					}
					served = append(served, ks)
				}
				name := fmt.Sprintf("coding=%s/level=%d/size=%d/impl=%s", c.name, c.level, size, impl.name)
				b.Run(name, func(b *testing.B) { serveKinds(b, served, impl, c.name) })
			}
		}
	}
}

// equalMinSize is every middleware's MinSize in BenchmarkEqualLevel, so
// that all of them compress the corpus's smallest bodies.
const equalMinSize = 256

// equalSizes are the body sizes of BenchmarkEqualLevel.
var equalSizes = []int{256, 1 << 10, 4 << 10, 8 << 10}

// kindServes is what serves each cut of one kind at one size.
type kindServes struct {
	kind   string
	bodies []encodingBody
	serves []func(*sinkWriter)
}

// serveKinds checks every body's output once, then serves every kind's
// bodies in turn, one pass over all of them per iteration, and reports
// each kind's mean time per response (ns/KIND) and body sent
// (out-B/KIND).
func serveKinds(b *testing.B, kinds []kindServes, impl encodingImpl, coding string) {
	if len(kinds) == 0 {
		b.Skip("no body of this size")
	}
	w := &sinkWriter{h: http.Header{}}
	out := make([]int64, len(kinds))
	var in int64
	for i, k := range kinds {
		for j, serve := range k.serves {
			w.reset()
			checkEncoded(b, w, serve, impl, coding, k.bodies[j])
			in, out[i] = in+int64(len(k.bodies[j].data)), out[i]+w.n
		}
	}
	elapsed := make([]time.Duration, len(kinds))
	b.ReportAllocs()
	b.SetBytes(in)
	for b.Loop() {
		for i, k := range kinds {
			start := time.Now()
			for _, serve := range k.serves {
				w.reset()
				serve(w)
			}
			elapsed[i] += time.Since(start)
		}
	}
	for i, k := range kinds {
		responses := float64(b.N * len(k.serves))
		b.ReportMetric(float64(elapsed[i].Nanoseconds())/responses, "ns/"+k.kind)
		b.ReportMetric(float64(out[i])/float64(len(k.serves)), "out-B/"+k.kind)
	}
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
		at("zstd", 3, true, zstdAt(zstd.SpeedDefault)),
		at("gzip", 5, true, gzipPeers),
		at("br", 3, false, brAt(3)),
		at("br", 4, true, brAt(4)),
	}
}

// equalKind is one kind of body of the corpus, its tiles by size.
type equalKind struct {
	kind   string
	bodies map[int][]encodingBody
}

// equalLevelBodies returns every tile of the repository corpus at
// equalSizes (corpus.Tiles), by kind.
func equalLevelBodies(b *testing.B) []equalKind {
	var kinds []equalKind
	for _, size := range equalSizes {
		tiles, err := corpus.Tiles(size)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range tiles {
			i := slices.IndexFunc(kinds, func(k equalKind) bool { return k.kind == c.Kind })
			if i < 0 {
				i = len(kinds)
				kinds = append(kinds, equalKind{c.Kind, map[int][]encodingBody{}})
			}
			kinds[i].bodies[size] = append(kinds[i].bodies[size], encodingBody{c.Name(), kindContentType(c.Kind), c.Data})
		}
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
