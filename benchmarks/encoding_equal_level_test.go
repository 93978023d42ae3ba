package benchmarks

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/CAFxX/httpcompression"
	hczstd "github.com/CAFxX/httpcompression/contrib/klauspost/zstd"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// BenchmarkEqualLevel serves the first 1 and 4 KiB of one corpus source of
// each kind of body through squeeze (its built-in codecs, which encode
// with the library), squeeze with OwnSmallBodyEncoders where an own
// encoder serves that level, gzhttp and httpcompression, every one at the
// same codec and level: zstd 1 (klauspost's SpeedFastest; gzhttp's
// ZstdCompressionLevel(SpeedFastest)) and 3 (SpeedDefault), gzip 5, br 3
// and 4. out-B is the body sent.
//
//	go test -run '^$' -bench EqualLevel -benchtime 0.3s -count 5 . > eq.txt
//	benchstat -col /impl eq.txt
func BenchmarkEqualLevel(b *testing.B) {
	bodies := equalLevelBodies(b)
	for _, c := range equalLevelCodings() {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", c.name)
		var impls []encodingImpl
		for _, codec := range []struct {
			name  string
			codec encoding.Codec
		}{{"squeeze", c.codec}, {"squeeze-own", encoding.OwnSmallBodyEncoders(c.codec)}} {
			if codec.name == "squeeze-own" && !c.own {
				continue
			}
			cc := c
			cc.codec = codec.codec
			wrap, err := squeezeWrap(cc.encodingCoding)
			if err != nil {
				b.Fatal(err)
			}
			impls = append(impls, middlewareImpl(codec.name, wrap, c.decode))
		}
		for _, p := range c.peers {
			wrap, err := p.wrap()
			if err != nil {
				b.Fatalf("%s %s: %v", p.name, c.name, err)
			}
			impls = append(impls, middlewareImpl(p.name, wrap, c.decode))
		}
		for _, body := range bodies {
			for _, impl := range impls {
				serve := impl.prepare(body, r)
				b.Run(fmt.Sprintf("coding=%s/level=%d/body=%s/impl=%s", c.name, c.level, body.name, impl.name), func(b *testing.B) {
					serveLoop(b, serve, impl, c.name, body.data)
				})
			}
		}
	}
}

// equalLevelCoding is one coding and level of BenchmarkEqualLevel.
type equalLevelCoding struct {
	encodingCoding
	own bool // whether OwnSmallBodyEncoders serves this level
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
				wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(encodingMinSize), gzhttp.EnableZstd(true),
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
				return httpcompression.Adapter(httpcompression.ZstandardCompressor(c), httpcompression.MinSize(encodingMinSize))
			}},
		}
	}
	brAt := func(q int) []encodingPeer {
		return []encodingPeer{{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
			return httpcompression.Adapter(httpcompression.BrotliCompressionLevel(q), httpcompression.MinSize(encodingMinSize))
		}}}
	}
	at := func(name string, level int, own bool, peers []encodingPeer) equalLevelCoding {
		c := base[name]
		c.level, c.peers = level, peers
		return equalLevelCoding{c, own}
	}
	gzipPeers := base["gzip"].peers[:2] // gzhttp and httpcompression, level 5
	return []equalLevelCoding{
		at("zstd", 1, true, zstdAt(zstd.SpeedFastest)),
		at("zstd", 3, false, zstdAt(zstd.SpeedDefault)),
		at("gzip", 5, true, gzipPeers),
		at("br", 3, true, brAt(3)),
		at("br", 4, false, brAt(4)),
	}
}

// equalLevelBodies returns, per kind of body of the repository corpus, the
// first 1 and 4 KiB of its first source, named kind-1k and kind-4k.
func equalLevelBodies(b *testing.B) []encodingBody {
	sources, err := corpus.Sources()
	if err != nil {
		b.Fatal(err)
	}
	var out []encodingBody
	seen := map[string]bool{}
	for _, s := range sources {
		if seen[s.Kind] {
			continue
		}
		seen[s.Kind] = true
		for _, n := range []int{1 << 10, 4 << 10} {
			out = append(out, encodingBody{fmt.Sprintf("%s-%dk", s.Kind, n>>10), kindContentType(s.Kind), s.Data[:n]})
		}
	}
	return out
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
	case kind == "markdown":
		return "text/markdown; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}
