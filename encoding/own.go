package encoding

import (
	"maps"
	"slices"
	"sync"

	ownbrotli "github.com/squeezehttp/squeeze/internal/brotli"
	"github.com/squeezehttp/squeeze/internal/deflate"
	ownzstd "github.com/squeezehttp/squeeze/internal/zstd"
)

// LibraryEncoders returns the built-in codec c (Gzip, Deflate, Zstd or
// Brotli) with every body encoded by github.com/klauspost/compress or
// github.com/andybalholm/brotli: their exact bytes at the level asked for,
// for a service that must send what they send (to match recorded digests,
// say). The built-in codecs themselves send small bodies known whole to
// squeeze's own encoders (internal/deflate, internal/zstd and
// internal/brotli) wherever those keep a level's promise (see Coding.Level)
// in at most two thirds of the library's time: docs/levels.md lists where.
// Any other codec is returned as it is, a Codec wrapping a built-in too:
// wrap LibraryEncoders' result instead.
//
//	encoding.Coding{Codec: encoding.LibraryEncoders(encoding.Gzip()), Level: 5}
func LibraryEncoders(c Codec) Codec {
	if l, ok := c.(librarySwitch); ok {
		return l.libraryOnly()
	}
	return c
}

// librarySwitch is implemented by the codecs that have own encoders to
// switch off: each answers for itself, so that nothing outside a codec
// compares codec values.
type librarySwitch interface {
	// libraryOnly returns the codec with the library encoding every body:
	// itself when it does already.
	libraryOnly() Codec
}

func (c *flateCodec) libraryOnly() Codec {
	switch {
	case c.library:
		return c
	case c.comments:
		return gzipLibrary
	}
	return deflateLibrary
}

func (c *zstdCodec) libraryOnly() Codec {
	if c.library {
		return c
	}
	return zstdLibrary()
}

func (c *brotliCodec) libraryOnly() Codec {
	if c.library {
		return c
	}
	return brotliLibrary
}

// The built-in codecs with the library encoding every body: the same
// framing and padding as the codecs themselves.
var (
	gzipLibrary    = &flateCodec{name: "gzip", newWriter: gzipBuiltin.newWriter, frame: gzipFrame, comments: true, library: true}
	deflateLibrary = &flateCodec{name: "deflate", newWriter: deflateBuiltin.newWriter, frame: zlibFrame, library: true}
	zstdLibrary    = sync.OnceValue(func() *zstdCodec { return newZstdCodec(true) })
	brotliLibrary  = &brotliCodec{library: true}
)

// The rule that decides where an own encoder serves (DESIGN "A level means
// the library's trade-off"): for a coding, a level and a size class, on
// every body of the corpus (internal/corpus) in the class, the own
// encoder's output is, per kind of body, at most ownGeomeanBound times the
// library's at that level (geometric mean), no body of ownWorstFrom bytes
// or more is over ownWorstBound times the library's, and the own encoder
// takes at most 0.67 times the library's time. TestOwnEncoderRule derives
// the byte half from the corpus and fails when ownMaxBodies differs from it.
const (
	ownGeomeanBound = 1.01
	ownWorstBound   = 1.08
	ownWorstFrom    = 1 << 10
)

// ownSizeClasses are the rule's size classes by their largest body: a
// class holds the bodies above the previous class's largest, the corpus
// has cuts at 256 B and at each class's largest. Bodies above the last
// class are the library's.
var ownSizeClasses = []int{1 << 10, 2 << 10, 4 << 10, 8 << 10}

// ownTimeMaxBodies is the time half of the rule: per coding and level,
// the largest size class up to which BenchmarkOwnAgainstLibrary measured
// the own encoder at no more than 0.67 times the library's time per
// response through the middleware (per kind of body, then the geometric
// mean over the kinds) in every one of seven separate runs on a quiet
// machine, and in every such set of seven taken on the same code, every
// smaller class too. Levels the benchmark does not run are
// those that klauspost encodes exactly as one it runs (zstd 2 as 1, 4 and
// 5 as 3); levels absent are not candidates, the library serves them.
// Reproduce it with
//
//	for i in $(seq 7); do go test -run '^$' -bench OwnAgainstLibrary -benchtime 0.2s -count 1 ./encoding; done | benchstat -
var ownTimeMaxBodies = map[string]map[int]int{
	"gzip": {5: 4 << 10, 6: 1 << 10, 7: 8 << 10, 8: 8 << 10, 9: 8 << 10},
	// Quality 3 is andybalholm's cheapest hasher, which the own encoder
	// does not undercut by a third.
	"br": {3: 0, 4: 8 << 10, 5: 8 << 10, 6: 8 << 10},
	// Levels 1 and 2 are klauspost's fastest, which the double-fast finder
	// (internal/zstd/match.go) does not undercut by a third.
	"zstd": {1: 0, 2: 0, 3: 4 << 10, 4: 4 << 10, 5: 4 << 10},
}

// ownCandidateLevels returns, in order, the levels of coding whose time the
// benchmark measured: those TestOwnEncoderRule computes byte verdicts for.
func ownCandidateLevels(coding string) []int {
	return slices.Sorted(maps.Keys(ownTimeMaxBodies[coding]))
}

// ownTimeMaxBody returns the time half of the rule for coding at level: 0
// for a level that is not a candidate.
func ownTimeMaxBody(coding string, level int) int { return ownTimeMaxBodies[coding][level] }

// ownMaxBodies is, per coding and level (index 0 unused), the largest body
// known whole that the own encoder serves; 0 where the library serves
// every body. TestOwnEncoderRule holds it to the rule.
var ownMaxBodies = map[string][]int{
	"gzip": {0, 0, 0, 0, 0, 4 << 10, 1 << 10, 1 << 10, 1 << 10, 1 << 10},
	"br":   {0, 0, 0, 0, 4 << 10, 1 << 10, 1 << 10, 0, 0, 0, 0, 0},
	"zstd": {0, 0, 0, 4 << 10, 4 << 10, 4 << 10},
}

// ownMaxBody returns the largest body known whole that coding's own
// encoder serves at level, 0 for none. deflate is gzip's DEFLATE data in
// another frame and follows gzip.
func ownMaxBody(coding string, level int) int {
	if coding == "deflate" {
		coding = "gzip"
	}
	m := ownMaxBodies[coding]
	if level < 0 || level >= len(m) {
		return 0
	}
	return m[level]
}

// ownServes reports whether coding's own encoder serves a body of n bytes
// at level: where the table has it serve, whatever the body's size up to
// the bound, the empty body too.
func ownServes(coding string, level, n int) bool {
	m := ownMaxBody(coding, level)
	return m > 0 && n <= m
}

// ownEncodes reports whether a gzip or deflate body of n bytes at level
// goes to the own encoder, unless LibraryEncoders switched it off.
func ownEncodes(level, n int) bool { return ownServes("gzip", level, n) }

// ownZstd reports whether a zstd body of n bytes at level goes to the own
// encoder, unless LibraryEncoders switched it off.
func ownZstd(level, n int) bool { return ownServes("zstd", level, n) }

// ownBrotli reports whether a br body of n bytes at quality goes to the
// own encoder, unless LibraryEncoders switched it off.
func ownBrotli(quality, n int) bool { return ownServes("br", quality, n) }

// appendOwnZstd appends src as a zstd frame of the own encoder.
func appendOwnZstd(dst, src []byte) []byte {
	e := zstdOwnEncoders.Get().(*ownzstd.Encoder)
	defer zstdOwnEncoders.Put(e)
	return e.Append(dst, src)
}

// appendOwnBrotli appends src as a brotli stream of the own encoder.
func appendOwnBrotli(dst, src []byte) []byte {
	e := brotliEncoders.Get().(*ownbrotli.Encoder)
	defer brotliEncoders.Put(e)
	return e.Append(dst, src)
}

// Pools of the own encoders, each keeping its fixed-size hash tables and
// buffers that grow with the bodies; the brotli ones share the static
// dictionary's index, built on first use.
var (
	wholeEncoders   = sync.Pool{New: func() any { return new(deflate.WholeEncoder) }}
	zstdOwnEncoders = sync.Pool{New: func() any { return new(ownzstd.Encoder) }}
	brotliEncoders  = sync.Pool{New: func() any { return new(ownbrotli.Encoder) }}
)
