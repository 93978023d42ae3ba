package encoding

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Config configures a Middleware. The zero value is the recommended setup,
// like http.Server's: every field documents its default.
type Config struct {
	// Codings are the codings offered, in the server's order of preference;
	// the client's weights come first and this order breaks ties.
	// Default: DefaultCodings.
	Codings []Coding

	// MinSize is the smallest body that is compressed, in bytes: below it the
	// coding's framing and the CPU cost outweigh what is saved.
	// Default 1024 (DefaultMinSize); EverySize compresses bodies of every
	// size. New refuses a negative value. A body the handler flushes before
	// its end is a stream, compressed whatever its size (see EverySize).
	MinSize int

	// BufferSize is how much of a body is held back to decide and, when the
	// handler finishes within it, to compress in one shot and send with a
	// Content-Length (so HTTP/1.0 keep-alive clients and HTTP/1.1 framing
	// work). Longer bodies stream through a pooled encoder from that point.
	// Costs up to BufferSize of pooled memory per response in flight, and as
	// much again for the compressed copy. Default 128 KiB (DefaultBufferSize);
	// it is raised to MinSize when smaller. New refuses a negative value.
	BufferSize int

	// IdleRelease is how long a compressed stream that flushes (see
	// Streamer) may go without a flush before its encoder gives back its
	// live state, keeping only the last 8 KiB of input and the coding's
	// running state; the next write re-seeds it from those, at about the
	// cost of compressing them once. Default 1 s (DefaultIdleRelease); a
	// negative value keeps the live state for the stream's life.
	IdleRelease time.Duration

	// Types decides which media types (lower case, without parameters, such
	// as "application/json") are compressed. Default: CompressibleType.
	Types func(mediaType string) bool

	// Skip, when set, is asked once per request; true leaves that response
	// alone (and without a Vary added). Default: nil.
	Skip func(r *http.Request) bool

	// ETag says what happens to a strong ETag on a compressed response.
	// Default: ETagSuffix.
	ETag ETagMode

	// DisableConditional, when true, leaves conditional requests to the
	// handler alone. By default the middleware evaluates the If-None-Match,
	// If-Modified-Since and If-Match of a GET or HEAD request against the
	// final header of the handler's response, before any of it is sent, and
	// answers 304 Not Modified (for a 200) or 412 Precondition Failed (for a
	// 2xx) itself, dropping the body the handler wrote: a handler that sets
	// an ETag or Last-Modified and never looks at conditional requests
	// still revalidates, and If-Match stays exact with tags made per coding
	// (see ETagSuffix for what the handler sees). With DisableConditional a
	// handler that tags its variants per coding itself, as precompressed
	// does, still answers If-None-Match, but If-Match only with ETagKeep.
	DisableConditional bool

	// Jitter, when positive, pads every compressed response for an amount
	// n from 1 to Jitter, in a form the coding's decoders skip, so that its
	// length no longer tells an attacker how well a guessed secret
	// compressed (BREACH). Each n adds a different number of bytes: zstd a
	// skippable frame of n+8 bytes (dcz the same after its header); br
	// metadata meta-blocks of n bytes, after an aligning empty one of 0 to
	// 2 bytes more; gzip a header comment, n+1 bytes, or n+14 above 511
	// with empty DEFLATE blocks; deflate empty DEFLATE blocks of n+13 bytes.
	// A body sent whole gets an n that is a keyed hash of the body, so
	// repeating a request and averaging cannot cancel it out; a streamed
	// body, whose padding goes out before the body is known, gets a random
	// n. Padded br bodies known whole are encoded by andybalholm/brotli, not
	// the own small-body encoder. Every coding offered must pad (its Codec
	// implements Padder), and Jitter is at most 65536: New refuses anything
	// else. Default 0: off. For a response that mixes secrets with
	// attacker-chosen input, Bypass is the stronger remedy.
	Jitter int

	// NotAcceptable, when true, answers 406 Not Acceptable to requests that
	// exclude identity and every offered coding. By default such a request
	// gets identity, as RFC 9110 §12.5.3 allows.
	NotAcceptable bool

	// DecodeRequests, when true, decodes request bodies sent with a
	// Content-Encoding of zstd, br, gzip or deflate before the handler reads
	// them, and answers 415 Unsupported Media Type, with an Accept-Encoding
	// that lists those codings, to any other coding (RFC 9110 §15.5.16).
	// Default false: request bodies reach the handler untouched.
	DecodeRequests bool

	// MaxRequestSize bounds a decoded request body, in bytes, however small
	// the encoded one: reading past it fails with *http.MaxBytesError, and
	// an error status the handler then sends (or none) becomes 413 Content
	// Too Large. Only with DecodeRequests. Default 32 MiB
	// (DefaultMaxRequestSize); any value up to math.MaxInt64 works, and New
	// refuses a negative one.
	//
	// The decoder's memory follows this limit L, not what the sender asks
	// for. Per request it allocates at most:
	//   - zstd: 2·W + 384 KiB, W being the smallest window a frame header
	//     can state that holds L bytes and a 128 KiB block (within RFC
	//     9659's 8 MiB; 1.25 MiB for L = 1 MiB). A larger window in a frame
	//     header (Window_Descriptor, RFC 8878 §3.1.1.1.2; klauspost's
	//     streaming encoder and the zstd CLI reading a pipe state 2 to
	//     8 MiB whatever the body) is cut to W, which decodes the first L+1
	//     bytes the same; a single-segment frame whose content size is above
	//     W is refused with the *http.MaxBytesError (413) before its window
	//     is allocated.
	//   - br: 2·R + 3 MiB, R being the smallest power of two of at least
	//     L+17 bytes, within 256 KiB and 16 MiB: a larger window in the
	//     stream header (WBITS, RFC 7932 §9.1) is cut to R, which decodes
	//     the first L+1 bytes the same. The 3 MiB are the Huffman tables a
	//     stream may ask for, whatever L.
	//   - gzip, deflate: 128 KiB, whatever L.
	MaxRequestSize int64

	// OnResponse, when set, is called once per response that the middleware
	// handled, after the handler returned, with what it did and, for a body
	// sent uncompressed, why (Stats.Skip): for example to export metrics.
	// It is not called for a request that Skip left alone, nor for one whose
	// handler hijacked the connection. It must not retain r. Default: nil.
	OnResponse func(r *http.Request, s Stats)

	// Dictionaries, when set, turns on Compression Dictionary Transport
	// (RFC 9842): a request that names a dictionary the server has, and
	// lists its coding (dcz) by name in Accept-Encoding, gets its response
	// in that coding with Vary: Accept-Encoding, Available-Dictionary, when
	// the response's header permits it. Set it to a *dictionary.Server
	// (package encoding/dictionary). Default: nil, off.
	Dictionaries Dictionaries

	// Cache, when set, keeps the compressed form of bodies compressed
	// whole, by their content, and sends it again for an equal body instead
	// of compressing anew (see Cache for what is kept and what it costs).
	// Make it with NewCache; one Cache may serve several Middlewares and
	// precompressed file servers. Default: nil, every body is compressed.
	Cache *Cache
}

// Coding is one coding the middleware offers and the level to use.
type Coding struct {
	// Codec implements the coding, such as Zstd() or a user's own.
	Codec Codec
	// Level is the codec's compression level; 0 means its default. For the
	// built-in codecs a level means the library's trade-off: per kind of
	// body at most 1 % more bytes than klauspost/compress's or
	// andybalholm/brotli's output at that level (geometric mean), no body of
	// 1 KiB or more over 8 % more, in at most the library's time; squeeze's
	// own encoders serve the small bodies where they keep that promise.
	Level int
}

// Stats tells OnResponse what the middleware did with one response.
type Stats struct {
	// Coding is the content coding of the body sent, as the response's
	// Content-Encoding names it, "" for identity: the coding the middleware
	// compressed with, or the handler's own (a precompressed sidecar, a
	// body from a reverse proxy). Origin says which. For a HEAD, the coding
	// its header announces, the one its GET would be sent in.
	Coding string
	// Origin says where the bytes sent came from: the middleware's encoder,
	// Config.Cache, or the handler, passed through as it wrote them.
	Origin Origin
	// Status is the response's status code.
	Status int
	// BytesIn counts the body bytes the handler wrote.
	BytesIn int64
	// BytesOut counts the body bytes sent, after coding and padding: 0 for
	// a HEAD (RFC 9110 §9.3.2: its body is never sent, whatever the
	// handler wrote) and for the middleware's own 304 or 412.
	BytesOut int64
	// Duration is the time spent compressing, or looking the body up in
	// Config.Cache; zero for a body passed through.
	Duration time.Duration
	// Conditional reports that the middleware answered the request's
	// conditional header fields itself, with the 304 or 412 in Status, and
	// dropped the BytesIn that the handler wrote.
	Conditional bool
	// Skip says why the middleware did not compress the body: SkipNone
	// when Origin is OriginEncoder or OriginCache. A handler's own coding
	// is SkipEncoded, with Coding set.
	Skip Skip
	// Cache says whether the body came from Config.Cache, went into it,
	// or neither; for a precompressed file server's fallback, what its
	// cache (its own, or one shared with the middleware) did, with Origin
	// OriginHandler and Coding the fallback's.
	Cache CacheResult
}

// ETagMode says how a strong ETag is made to differ per coding, as
// RFC 9110 §8.8.3.3 requires of a strong validator.
type ETagMode int

const (
	// ETagSuffix appends the coding to a strong ETag ("abc" becomes
	// "abc-zstd"); weak ETags are left as they are. The handler sees
	// If-None-Match, and If-Match on methods other than GET and HEAD, with
	// that suffix taken off the tags of the response's coding (only that
	// coding: "abc-gzip" never validates a br response), in one field line,
	// so that a handler comparing the field with its own tag by == finds it;
	// the client's own If-None-Match lines follow, for a handler that tags
	// per coding itself.
	// If-Match on GET and HEAD is the middleware's to evaluate, against the
	// tag of the bytes sent (see DisableConditional). If-Range reaches the
	// handler as the client sent it: a compressed tag does not match the
	// handler's, so it sends the whole body rather than a range of bytes the
	// client does not hold. A handler's own 304 carries the suffixed tag
	// unless If-None-Match shows that the client holds the identity one.
	ETagSuffix ETagMode = iota
	// ETagWeaken turns a strong ETag into a weak one ("abc" becomes W/"abc"):
	// still good for If-None-Match, no longer for If-Match or If-Range.
	// Conditional header fields reach the handler as the client sent them.
	ETagWeaken
	// ETagKeep leaves ETags alone, for handlers that already make them
	// differ per coding.
	ETagKeep
)

// EverySize, as Config.MinSize, compresses bodies of every size. It is the
// smallest size, one byte: an empty body, which no coding makes shorter, is
// never compressed. A stream is: a handler that flushes before its body
// ends gets its coding at that flush, since the stream may continue (the
// flush sends the header alone), and a stream that then ends without a
// byte is the coding's empty stream (gzip: 20 bytes).
const EverySize = 1

// Defaults of Config's fields.
const (
	// DefaultMinSize is Config.MinSize's default, twice
	// precompressed.DefaultMinSize on purpose: the middleware compresses a
	// body anew for every response, where precompressed compresses a file
	// once and sends it many times, so a smaller saving pays there.
	DefaultMinSize = 1024
	// DefaultBufferSize is Config.BufferSize's default.
	DefaultBufferSize = 128 << 10
	// DefaultMaxRequestSize is Config.MaxRequestSize's default.
	DefaultMaxRequestSize = 32 << 20
)

// DefaultCodings returns the codings a zero Config offers, in its order.
func DefaultCodings() []Coding {
	return []Coding{
		{Codec: Zstd(), Level: defaultZstdLevel},
		{Codec: Brotli(), Level: defaultBrotliLevel},
		{Codec: Gzip(), Level: defaultGzipLevel},
		{Codec: Deflate(), Level: defaultGzipLevel},
	}
}

// Levels of DefaultCodings, chosen from the level sweep (docs/levels.md).
const (
	defaultZstdLevel   = 3
	defaultBrotliLevel = 4
	defaultGzipLevel   = 5
)

// settings is a Config with its defaults applied and its pools built.
type settings struct {
	offers        []offer
	names         []string // offers' coding names, for negotiate.Select
	minSize       int
	bufferSize    int
	types         func(string) bool
	skip          func(*http.Request) bool
	etag          ETagMode
	idleRelease   time.Duration // negative: never
	conditional   bool          // the middleware evaluates conditional requests
	jitter        int
	notAcceptable bool
	onResponse    func(*http.Request, Stats)

	decodeRequests bool
	maxRequestSize int64

	dict  Dictionaries // nil without Config.Dictionaries
	cache *Cache       // nil without Config.Cache
}

func (c Config) settings() (*settings, error) {
	s := &settings{
		minSize:       c.MinSize,
		bufferSize:    c.BufferSize,
		types:         c.Types,
		skip:          c.Skip,
		etag:          c.ETag,
		idleRelease:   c.IdleRelease,
		conditional:   !c.DisableConditional,
		jitter:        c.Jitter,
		notAcceptable: c.NotAcceptable,
		onResponse:    c.OnResponse,

		decodeRequests: c.DecodeRequests,
		maxRequestSize: c.MaxRequestSize,

		dict:  c.Dictionaries,
		cache: c.Cache,
	}
	// A negative size is a mistake, not a request for the default or for
	// no limit: refuse it here rather than guess.
	switch {
	case s.minSize < 0:
		return nil, fmt.Errorf("encoding: Config.MinSize %d is negative; use EverySize to compress every size, or leave it 0 for the default", s.minSize)
	case s.bufferSize < 0:
		return nil, fmt.Errorf("encoding: Config.BufferSize %d is negative; leave it 0 for the default", s.bufferSize)
	case s.maxRequestSize < 0:
		return nil, fmt.Errorf("encoding: Config.MaxRequestSize %d is negative; leave it 0 for the default", s.maxRequestSize)
	case s.jitter < 0:
		return nil, fmt.Errorf("encoding: Config.Jitter %d is negative; leave it 0 for no padding", s.jitter)
	}
	if s.idleRelease == 0 {
		s.idleRelease = DefaultIdleRelease
	}
	if s.minSize == 0 {
		s.minSize = DefaultMinSize
	}
	if s.cache != nil && s.cache.c == nil {
		return nil, errors.New("encoding: Config.Cache was not made by NewCache")
	}
	if s.bufferSize == 0 {
		s.bufferSize = DefaultBufferSize
	}
	s.bufferSize = max(s.bufferSize, s.minSize)
	if s.maxRequestSize == 0 {
		s.maxRequestSize = DefaultMaxRequestSize
	}
	if s.types == nil {
		s.types = CompressibleType
	}
	if s.jitter > maxPad {
		return nil, fmt.Errorf("encoding: Config.Jitter %d is above %d", s.jitter, maxPad)
	}
	if s.etag < ETagSuffix || s.etag > ETagKeep {
		return nil, fmt.Errorf("encoding: unknown ETagMode %d", s.etag)
	}
	codings := c.Codings
	if codings == nil {
		codings = DefaultCodings()
	}
	if len(codings) == 0 {
		return nil, errors.New("encoding: Config.Codings is empty; leave it nil for the defaults")
	}
	seen := map[string]bool{}
	for i, coding := range codings {
		if coding.Codec == nil {
			return nil, fmt.Errorf("encoding: Config.Codings[%d] has no Codec", i)
		}
		p, err := newEncoderPool(coding.Codec, coding.Level)
		if err != nil {
			return nil, err
		}
		name := p.name()
		if seen[name] {
			return nil, fmt.Errorf("encoding: coding %q is listed twice", name)
		}
		if s.jitter > 0 && !p.canPad() {
			return nil, fmt.Errorf("encoding: Jitter is set, but the %q codec (%T) cannot pad: it does not implement encoding.Padder", name, coding.Codec)
		}
		seen[name] = true
		s.offers = append(s.offers, offer{
			pool:            p,
			contentEncoding: []string{name}[:1:1],
			etagSuffix:      "-" + name + `"`,
		})
		s.names = append(s.names, name)
	}
	return s, nil
}

// offer is one coding the middleware offers, with what a response in it
// needs, made once.
type offer struct {
	pool *encoderPool
	// contentEncoding is the Content-Encoding header value, shared by every
	// response in this coding: headers are replaced, not edited in place,
	// and its capacity of one makes an append copy it.
	contentEncoding []string
	etagSuffix      string // what ETagSuffix appends inside the quotes, with the closing quote
	dictionary      bool   // a coding with a dictionary (Config.Dictionaries)
}

// offer returns the named coding, which must be one of s.names, or nil
// for identity.
func (s *settings) offer(name string) *offer {
	for i, n := range s.names {
		if n == name {
			return &s.offers[i]
		}
	}
	return nil
}
