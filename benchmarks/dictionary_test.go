package benchmarks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/encoding/dictionary"
)

// dictionaryVersions returns two consecutive builds of one script,
// generated, with a few percent of their functions changed (the
// repository holds one version of each script only).
func dictionaryVersions() (name string, previous, next []byte) {
	return "generated-v1-to-v2", generatedBuild(1), generatedBuild(2)
}

// generatedBuild is build version of a 250 KB script; one function in 20
// changes from one build to the next.
func generatedBuild(version int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < 250<<10; i++ {
		k := i * 7919 % 10007
		if i%20 == 0 {
			k += version * 31
		}
		fmt.Fprintf(&b, "function f%d(a,b){var c=a*%d+b.length;return c>%d?b.slice(%d):[a,b,%q];}\n", i, k, k/3, k%17, fmt.Sprint("m", i%113))
	}
	return []byte(b.String())
}

// BenchmarkDictionaryCodings compresses the newer build as each coding a
// client can get it in, at the level the middleware uses on the fly and at
// the highest one (what a build step would precompress with), and reports
// the bytes sent: dcz and dcb use the older build as their dictionary
// (RFC 9842 §5, §4); dcb has one quality, andybalholm/brotli's matchfinder
// encoder's.
//
//	go test -run '^$' -bench DictionaryCodings -count 6 . | benchstat -col /coding -
func BenchmarkDictionaryCodings(b *testing.B) {
	name, previous, next := dictionaryVersions()
	dict := dictionary.New(previous)
	type coding struct {
		name   string
		encode func(dst, src []byte) ([]byte, error)
	}
	appendWith := func(c encoding.Codec, level int) func(dst, src []byte) ([]byte, error) {
		ae := c.(encoding.AppendEncoder)
		return func(dst, src []byte) ([]byte, error) { return ae.AppendEncode(dst, src, level) }
	}
	dcz := func(level int) func(dst, src []byte) ([]byte, error) {
		return func(dst, src []byte) ([]byte, error) { return dictionary.AppendDCZ(dst, src, dict, level) }
	}
	codings := []coding{
		{"identity", func(dst, src []byte) ([]byte, error) { return append(dst, src...), nil }},
		{"gzip-5", appendWith(encoding.Gzip(), 5)},
		{"gzip-9", appendWith(encoding.Gzip(), 9)},
		{"br-4", appendWith(encoding.Brotli(), 4)},
		{"br-11", appendWith(encoding.Brotli(), 11)},
		{"zstd-3", appendWith(encoding.Zstd(), 3)},
		{"zstd-19", appendWith(encoding.Zstd(), 19)},
		{"dcz-3", dcz(3)},
		{"dcz-19", dcz(19)},
		{"dcb", func(dst, src []byte) ([]byte, error) { return dictionary.AppendDCB(dst, src, dict), nil }},
	}
	for _, c := range codings {
		b.Run(fmt.Sprintf("asset=%s/coding=%s", name, c.name), func(b *testing.B) {
			out, err := c.encode(nil, next) // warms the dictionary's encoder up, outside the timing
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(next)))
			b.ReportAllocs()
			for b.Loop() {
				if out, err = c.encode(out[:0], next); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(out)), "B/resp")
			b.ReportMetric(float64(len(next))/float64(len(out)), "ratio")
		})
	}
}
