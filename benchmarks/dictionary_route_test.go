package benchmarks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/encoding/dictionary"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// BenchmarkRouteDictionary treats each JSON source of the corpus as the
// responses of one API route, cut at 1, 2 and 4 KiB one after the other,
// builds the route's dictionary (dictionary.Route.Build) and reports the
// bytes of a held-back response as dcz with it (impl=squeeze), as br 4 and
// as zstd 3, and whether the route announces it (announced: 1 when dcz is
// DefaultMinGain times smaller than the better of the two):
//
//	go test -run '^$' -bench RouteDictionary -benchtime 1x .
func BenchmarkRouteDictionary(b *testing.B) {
	srcs, err := corpus.Sources()
	if err != nil {
		b.Fatal(err)
	}
	for _, src := range srcs {
		if !strings.HasPrefix(src.Kind, "json") && src.Kind != "geojson" {
			continue
		}
		for _, size := range []int{1 << 10, 2 << 10, 4 << 10} {
			var samples [][]byte
			for off := 0; off+size <= len(src.Data); off += size {
				samples = append(samples, src.Data[off:off+size])
			}
			if len(samples) < 5 {
				continue
			}
			var g dictionary.Gain
			name := fmt.Sprintf("%s/%s/size=%d", src.Kind, src.Name, size)
			b.Run(name+"/impl=squeeze", func(b *testing.B) {
				for b.Loop() {
					r, err := dictionary.NewRoute(dictionary.RouteConfig{Match: "/api/*", Path: "/d", Store: dictionary.NewStore(0)})
					if err != nil {
						b.Fatal(err)
					}
					if g, err = r.Build(samples); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(g.DCZ)/float64(g.Samples), "B/response")
				announced := 0.0
				if g.Announced {
					announced = 1
				}
				b.ReportMetric(announced, "announced")
			})
			for _, other := range []struct {
				impl  string
				bytes func() int64
			}{{"br-4", func() int64 { return g.Brotli }}, {"zstd-3", func() int64 { return g.Zstd }}} {
				b.Run(name+"/impl="+other.impl, func(b *testing.B) {
					for b.Loop() {
					}
					b.ReportMetric(float64(other.bytes())/float64(g.Samples), "B/response")
				})
			}
		}
	}
}
