package negotiate

import (
	"net/http"
	"testing"
)

// The Accept-Encoding values that real clients send, and one that makes the
// parser work (parameters, quotes, two lines).
var benchHeaders = []struct {
	name  string
	lines []string
}{
	{"browser", []string{"gzip, deflate, br, zstd"}},
	{"safari", []string{"gzip, deflate, br"}},
	{"gzip-deflate", []string{"gzip, deflate"}},
	{"weighted", []string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}},
	{"curl", []string{"deflate, gzip, br, zstd"}},
	{"go-client", []string{"gzip"}},
	{"absent", nil},
	{"hostile", []string{`x-gzip;a="b, c";q=0.5, identity;q=0, junk;;, br;q=0.9`, "*;q=0.1"}},
}

func BenchmarkSelect(b *testing.B) {
	for _, bh := range benchHeaders {
		b.Run(bh.name, func(b *testing.B) {
			h := http.Header{}
			if bh.lines != nil {
				h["Accept-Encoding"] = bh.lines
			}
			b.ReportAllocs()
			for b.Loop() {
				Select(h, "zstd", "br", "gzip", "deflate")
			}
		})
	}
}

func BenchmarkAddVary(b *testing.B) {
	b.ReportAllocs()
	h := http.Header{"Vary": {"Origin, Accept-Encoding"}}
	for b.Loop() {
		AddVary(h, "Accept-Encoding")
	}
}
