package encoding

import (
	"sync"

	ownbrotli "github.com/squeezehttp/squeeze/internal/brotli"
	"github.com/squeezehttp/squeeze/internal/deflate"
	ownzstd "github.com/squeezehttp/squeeze/internal/zstd"
)

// OwnSmallBodyEncoders returns the built-in codec c (Gzip, Deflate, Zstd or
// Brotli) with squeeze's own encoders (internal/deflate, internal/zstd and
// internal/brotli) on the small-body path: bodies known whole of up to a
// few KB, at the one level of the library that each own encoder stands in
// for, are encoded by it instead of
// by github.com/klauspost/compress or github.com/andybalholm/brotli:
//
//   - gzip and deflate at level 5, bodies of up to 4 KiB;
//   - zstd at levels 1 and 2 (klauspost's SpeedFastest), up to 4 KiB;
//   - br at quality 3, up to 8 KiB.
//
// Every other body, level and streamed response is the library's, as with
// c itself. Any other codec is returned as it is, a Codec wrapping a
// built-in too: wrap OwnSmallBodyEncoders' result instead.
//
// The own encoders take fewer instructions per response than the library
// at those levels, but their output is not within 3 % of the library's on
// every kind of body, which is why the built-in codecs do not use them:
// the sizes per kind of body and the CPU saved are in docs/performance.md
// (TestOwnSmallBodyEncoderSizes and BenchmarkEqualLevel measure them).
// Their streams decode with the reference decoders (the differential fuzz
// targets of those packages check them against libzstd, the C brotli
// decoder and zlib).
//
// Use it as
//
//	encoding.Coding{Codec: encoding.OwnSmallBodyEncoders(encoding.Zstd()), Level: 1}
func OwnSmallBodyEncoders(c Codec) Codec {
	if o, ok := c.(ownSwitch); ok {
		return o.withOwnEncoders()
	}
	return c
}

// ownSwitch is implemented by the codecs that have own encoders to switch
// on: each answers for itself, so that nothing outside a codec compares
// codec values.
type ownSwitch interface {
	// withOwnEncoders returns the codec with its own encoders on: itself
	// when they are on already.
	withOwnEncoders() Codec
}

func (c *flateCodec) withOwnEncoders() Codec {
	switch {
	case c.own:
		return c
	case c.comments:
		return gzipOwn
	}
	return deflateOwn
}

func (c *zstdCodec) withOwnEncoders() Codec {
	if c.own {
		return c
	}
	return zstdOwn()
}

func (c *brotliCodec) withOwnEncoders() Codec {
	if c.own {
		return c
	}
	return brotliOwn
}

// The built-in codecs with their own encoders on: the same framing and
// padding as the codecs themselves.
var (
	gzipOwn    = &flateCodec{name: "gzip", newWriter: gzipBuiltin.newWriter, frame: gzipFrame, comments: true, own: true}
	deflateOwn = &flateCodec{name: "deflate", newWriter: deflateBuiltin.newWriter, frame: zlibFrame, own: true}
	zstdOwn    = sync.OnceValue(func() *zstdCodec { return newZstdCodec(true) })
	brotliOwn  = &brotliCodec{own: true}
)

// The own encoders' levels and largest bodies, where their output stays
// nearest the library's at the level they stand in for.
const (
	ownLevel       = 5       // gzip and deflate
	ownMaxBody     = 4 << 10 // gzip and deflate
	ownZstdLevel   = 2       // zstd levels 1 and 2: SpeedFastest
	ownZstdMaxBody = 4 << 10
	ownBrotliLevel = 3
	// ownBrotliMaxBody: past 8 KiB the own brotli encoder's single
	// meta-block falls further behind.
	ownBrotliMaxBody = 8 << 10
)

// ownEncodes reports whether a gzip or deflate body of n bytes at level
// goes to the own encoder when it is on.
func ownEncodes(level, n int) bool { return level == ownLevel && n <= ownMaxBody }

// ownZstd reports whether a zstd body of n bytes at level goes to the own
// encoder when it is on.
func ownZstd(level, n int) bool { return level <= ownZstdLevel && n <= ownZstdMaxBody }

// ownBrotli reports whether a br body of n bytes at quality goes to the
// own encoder when it is on.
func ownBrotli(quality, n int) bool { return quality == ownBrotliLevel && n <= ownBrotliMaxBody }

// Pools of the own encoders, each keeping its fixed-size hash tables and
// buffers that grow with the bodies; the brotli ones share the static
// dictionary's index, built on first use.
var (
	wholeEncoders   = sync.Pool{New: func() any { return new(deflate.WholeEncoder) }}
	zstdOwnEncoders = sync.Pool{New: func() any { return new(ownzstd.Encoder) }}
	brotliEncoders  = sync.Pool{New: func() any { return new(ownbrotli.Encoder) }}
)
