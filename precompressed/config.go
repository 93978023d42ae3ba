package precompressed

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/encoding/dictionary"
	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// Sidecar names one kind of precompressed file: the content-coding it holds
// and the extension appended to the original's name ("app.js" + ".br").
type Sidecar struct {
	// Coding is the content-coding token sent in Content-Encoding, in lower
	// case: "zstd", "br", "gzip".
	Coding string
	// Ext is the suffix of the sidecar's name, with its leading dot.
	Ext string
}

// DefaultSidecars returns the sidecars FileServer looks for when
// Config.Sidecars is nil: zstd decodes fastest, brotli is smallest on text,
// gzip is understood everywhere. Their order breaks ties between codings
// the client weighs equally only with Config.PreferOrder, or between
// sidecars of the same size.
func DefaultSidecars() []Sidecar {
	return []Sidecar{{"zstd", ".zst"}, {"br", ".br"}, {"gzip", ".gz"}}
}

// Config tunes a FileServer. The zero value is the recommended setup.
type Config struct {
	// Sidecars lists the precompressed variants looked for beside each file.
	// Among the codings a client weighs equally the smallest sidecar wins,
	// and this order breaks ties of size (see PreferOrder). Nil means
	// DefaultSidecars. A
	// sidecar whose Coding is not a content-coding token, whose Ext has no
	// leading dot or a slash, or whose Ext another one has too, makes
	// FileServer panic, as does an empty non-nil list.
	Sidecars []Sidecar

	// PreferOrder gives ties between codings the client weighs equally to
	// the first of them in Sidecars (and, for files compressed on the fly,
	// in Fallback) instead of to the smallest variant. By default the
	// smallest wins: sizes come with the stat the server makes anyway, so
	// choosing costs nothing per request, and a client sending Chromium's
	// "gzip, deflate, br, zstd" gets the .br of a text file where it is
	// smaller than the .zst. The client's weights (q-values) always come
	// first (RFC 9110 §12.5.3).
	PreferOrder bool

	// ServeStale serves sidecars older than their original. By default a
	// sidecar whose modification time is before the second of the
	// original's is taken to be left over from an earlier build and
	// ignored: the C tools (brotli -k, for one) give a sidecar the
	// original's time in whole seconds.
	ServeStale bool

	// HideSidecars answers 404 to a request naming a sidecar directly (any
	// name ending in one of the Sidecars' extensions, or a delta sidecar
	// named as DeltaName names it). By default such a request gets the
	// file itself, as the archive it is (application/gzip for ".gz",
	// application/octet-stream for a delta), without Content-Encoding.
	// Deltas are still served as dcz to clients that have their
	// dictionary.
	HideSidecars bool

	// ServeDotfiles serves names with an element starting with a dot. By
	// default they answer 404, and so do their sidecars.
	ServeDotfiles bool

	// Hide, when set, answers 404 for every slash-separated name (as in
	// fs.FS, without a leading slash) for which it returns true. It is
	// asked about sidecar names too, and a hidden sidecar is never served.
	Hide func(name string) bool

	// CheckInterval is how long a file's stat results (found or not found)
	// are trusted before they are checked again. Zero means one second
	// (DefaultCheckInterval); a negative value checks on every request.
	// Files reporting a zero modification time, as embed.FS does, are
	// taken to be immutable and are never checked again.
	CheckInterval time.Duration

	// StatCacheBytes bounds the memory that holds stat results, found and
	// not found, by the name requested. Each name is charged its length,
	// the names of the sidecars found beside it and a fixed amount per
	// file; a name that would take more than 1/64 of the budget is looked
	// up on every request rather than kept. When full, names not requested
	// lately go first. Zero means DefaultStatCacheBytes; a negative value
	// makes FileServer panic. With Config.Dictionary, an eighth of it holds
	// the stat results of delta sidecars.
	StatCacheBytes int64

	// FileCacheBytes bounds the memory that holds the bytes of small files,
	// sidecars and originals, with the header values of their 200s, so
	// that they are served without opening them: a file is read once and
	// checked again, by its stat results, every CheckInterval, like
	// everything the server knows of it. A file larger than 1/64 of the
	// budget (512 KiB by default) is opened for each response and sent
	// with sendfile where the connection allows. When full, files not
	// requested lately go first. Zero means DefaultFileCacheBytes; a
	// negative value turns it off; a positive value under MinFileCacheBytes,
	// too small to hold a file of 1 KiB, makes FileServer panic.
	FileCacheBytes int64

	// Fallback lists the codecs used to compress, on the fly, a compressible
	// file that has no sidecar, at their default levels. Their order breaks
	// ties between codings a client weighs equally until the file is
	// recompressed (FallbackRecompressAfter), and from then on with
	// PreferOrder only; otherwise the smallest wins. Nil
	// means zstd, brotli and gzip at their default levels; an empty list
	// compresses nothing on the fly. A nil Codec, or one whose name is not
	// a content-coding token or is another's too, makes FileServer panic.
	Fallback []encoding.Codec

	// FallbackCacheBytes bounds the memory that holds files compressed on
	// the fly, and the decoded content of sidecars whose original is
	// missing, least recently used first out. Zero means 32 MiB
	// (DefaultFallbackCacheBytes), or the budget of Cache when set; a
	// negative value turns on-the-fly compression and the caching of
	// decoded content off. Files larger
	// than a quarter of the budget are served uncompressed instead, and
	// decoded content that large is decoded anew for each request, as it
	// is sent.
	FallbackCacheBytes int64

	// Cache, when set, holds the files compressed on the fly and the
	// decoded content of sidecars instead of a cache of the server's own,
	// and bounds them with its budget in place of FallbackCacheBytes,
	// which must then be zero. Give the same Cache to an encoding
	// Middleware (encoding.Config.Cache) and a file and a handler's output
	// with the same bytes share one compressed entry: both key it by the
	// SHA-256 of the content, the coding and its level (the codec's
	// default here). Default: nil, a cache of FallbackCacheBytes.
	Cache *encoding.Cache

	// FallbackRecompressAfter is how many responses from the fallback
	// cache a file is sent in before it is re-made, in the background, at
	// the highest level of each fallback coding clients weigh highest in
	// their requests for it (a client sending Chromium's Accept-Encoding
	// asks for all three); from then on, among the codings a client weighs
	// equally, the smallest is sent (unless PreferOrder), under the ETag
	// of its new bytes. One goroutine does it, one file at a time, and runs
	// only while files wait; at most 64 wait, and one that finds the queue
	// full is queued by a later response. With a shared Config.Cache, the
	// middleware's responses with the same content get the smaller bytes
	// too.
	//
	// It costs once per file, on one core, what it saves on every later
	// response; brotli's quality 11 costs the most and saves the most, and
	// the cost grows with the file. BenchmarkFallbackRecompress measures
	// the time and bytes of each coding's levels.
	//
	// Zero means DefaultFallbackRecompressAfter; a negative value never
	// recompresses, and the Fallback order then always breaks ties.
	FallbackRecompressAfter int

	// Manifest, when set, is the manifest Generate wrote for the tree (see
	// ReadManifest). A sidecar is then served only if the manifest lists it
	// beside its original, with both files' sizes and SHA-256 hashes
	// matching; one it does not vouch for is ignored, like a stale one,
	// and the manifest's own name answers 404.
	//
	// In a tree whose files report zero modification times, as embed.FS
	// does, nothing can change after the build, so the manifest is trusted
	// as it is: ETags come from its hashes, and no file is read to hash it,
	// at start-up or later. In other trees each listed file is hashed once
	// per version, the first time its name is requested (the read that
	// would make its ETag anyway), and compared.
	Manifest *Manifest

	// FallbackMinSize is the smallest file compressed on the fly. Zero
	// means 512 bytes (DefaultMinSize): below that the saving does not pay
	// for the headers. EverySize compresses files of every size; a
	// negative value makes FileServer panic.
	FallbackMinSize int64

	// Dictionary, when set, marks versioned assets as compression
	// dictionaries and serves delta sidecars made by GenerateDelta as dcz
	// (RFC 9842); see DictionaryConfig. Nil: off.
	Dictionary *DictionaryConfig
}

// DefaultStatCacheBytes is the stat cache's budget when
// Config.StatCacheBytes is zero. A file with three sidecars is charged
// less than 1 KiB plus four times the length of its name.
const DefaultStatCacheBytes = 16 << 20

// DefaultFileCacheBytes is the budget of the memory that holds small
// files when Config.FileCacheBytes is zero: a site of 32 MiB in sidecars
// and originals is served from memory whole.
const DefaultFileCacheBytes = 32 << 20

// MinFileCacheBytes is the smallest positive Config.FileCacheBytes: the
// budget whose 1/64, the largest file held, is 1 KiB.
const MinFileCacheBytes = 64 << 10

// DefaultMinSize is the smallest file compressed, on the fly or by
// Generate, when Config.FallbackMinSize or GenerateConfig.MinSize is zero.
// It is half encoding.DefaultMinSize on purpose: a file is compressed once
// (a sidecar, or a fallback kept in the cache) and sent many times, so a
// smaller saving pays, where the middleware compresses a body anew for
// every response.
const DefaultMinSize = 512

// EverySize, as Config.FallbackMinSize or GenerateConfig.MinSize,
// compresses files of every size. It is encoding.EverySize, the smallest
// size, one byte: an empty file, which no coding makes shorter, is never
// compressed.
const EverySize = encoding.EverySize

// Defaults of Config's fields, when zero.
const (
	DefaultCheckInterval           = time.Second // Config.CheckInterval
	DefaultFallbackCacheBytes      = 32 << 20    // Config.FallbackCacheBytes
	DefaultFallbackRecompressAfter = 4           // Config.FallbackRecompressAfter
)

// minSize maps a minimum size as Config and GenerateConfig take it to the
// one applied; ok is false for a negative value.
func minSize(n int64) (size int64, ok bool) {
	if n == 0 {
		return DefaultMinSize, true
	}
	return n, n > 0
}

// sidecars returns cfg's sidecars with defaults applied; check has
// vetted them.
func (cfg *Config) sidecars() []Sidecar {
	if cfg.Sidecars == nil {
		return DefaultSidecars()
	}
	out := make([]Sidecar, len(cfg.Sidecars))
	for i, sc := range cfg.Sidecars {
		out[i] = Sidecar{Coding: strings.ToLower(sc.Coding), Ext: sc.Ext}
	}
	return out
}

// check reports the first field of cfg that cannot work, by its name.
func (cfg *Config) check() error {
	exts := map[string]bool{}
	for i, sc := range cfg.Sidecars {
		if !validCoding(sc.Coding) {
			return fmt.Errorf("precompressed: Config.Sidecars[%d] %+v: Coding must be a content-coding token such as \"br\"", i, sc)
		}
		if len(sc.Ext) < 2 || sc.Ext[0] != '.' || strings.ContainsAny(sc.Ext, "/\\\x00") {
			return fmt.Errorf("precompressed: Config.Sidecars[%d] %+v: Ext must be a file extension with its dot, such as \".br\"", i, sc)
		}
		if exts[sc.Ext] {
			return fmt.Errorf("precompressed: Config.Sidecars[%d] %+v: extension %q is listed twice", i, sc, sc.Ext)
		}
		exts[sc.Ext] = true
	}
	if cfg.Sidecars != nil && len(cfg.Sidecars) == 0 {
		return errors.New("precompressed: Config.Sidecars is empty; leave it nil for DefaultSidecars")
	}
	if _, ok := minSize(cfg.FallbackMinSize); !ok {
		return fmt.Errorf("precompressed: Config.FallbackMinSize %d: must not be negative (EverySize compresses every size, 0 means DefaultMinSize)", cfg.FallbackMinSize)
	}
	if cfg.StatCacheBytes < 0 {
		return fmt.Errorf("precompressed: Config.StatCacheBytes %d: must not be negative (zero means DefaultStatCacheBytes)", cfg.StatCacheBytes)
	}
	if cfg.FileCacheBytes > 0 && cfg.FileCacheBytes < MinFileCacheBytes {
		return fmt.Errorf("precompressed: Config.FileCacheBytes %d: holds no file worth holding; at least MinFileCacheBytes (%d), or negative for off", cfg.FileCacheBytes, MinFileCacheBytes)
	}
	names := map[string]bool{}
	for i, c := range cfg.Fallback {
		if c == nil {
			return fmt.Errorf("precompressed: Config.Fallback[%d] is a nil Codec", i)
		}
		name := c.Name()
		if !validCoding(name) {
			return fmt.Errorf("precompressed: Config.Fallback[%d]: codec name %q is not a content-coding token", i, name)
		}
		if names[name] {
			return fmt.Errorf("precompressed: Config.Fallback[%d]: coding %q is listed twice", i, name)
		}
		names[name] = true
	}
	if cfg.Cache != nil {
		switch {
		case cfg.FallbackCacheBytes != 0:
			return fmt.Errorf("precompressed: Config.FallbackCacheBytes %d with Config.Cache set: the Cache's budget applies; leave it zero", cfg.FallbackCacheBytes)
		case contentcache.Hook(cfg.Cache) == nil:
			return errors.New("precompressed: Config.Cache was not made by encoding.NewCache")
		}
	}
	if d := cfg.Dictionary; d != nil {
		// The pattern comes per file from Match; everything else in the
		// header is known now.
		if _, err := (dictionary.UseAs{Match: "/*", MatchDest: d.MatchDest}).Value(); err != nil {
			return fmt.Errorf("precompressed: Config.Dictionary.MatchDest: %w", err)
		}
		// max-age is in whole seconds: under one, no response would be
		// fresh, and so none usable as a dictionary.
		if d.MaxAge < 0 || d.MaxAge > 0 && d.MaxAge < time.Second {
			return fmt.Errorf("precompressed: Config.Dictionary.MaxAge %v: must be at least a second (zero means a year)", d.MaxAge)
		}
	}
	return nil
}

// validCoding reports whether c can stand in Content-Encoding and
// Accept-Encoding as one coding: not empty, not identity or "*", without
// the separators or controls that would split or end it (RFC 9110 §5.6.2).
func validCoding(c string) bool {
	if c == "" || strings.EqualFold(c, "identity") || c == "*" {
		return false
	}
	for i := 0; i < len(c); i++ {
		if c[i] <= ' ' || c[i] >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c[i]) >= 0 {
			return false
		}
	}
	return true
}

func (cfg *Config) checkInterval() time.Duration {
	if cfg.CheckInterval == 0 {
		return DefaultCheckInterval
	}
	return cfg.CheckInterval
}

func (cfg *Config) statCacheBytes() int64 {
	if cfg.StatCacheBytes == 0 {
		return DefaultStatCacheBytes
	}
	return cfg.StatCacheBytes
}

// fileCacheBytes is the budget of the held files; 0: off.
func (cfg *Config) fileCacheBytes() int64 {
	return defaultOrOff(cfg.FileCacheBytes, DefaultFileCacheBytes)
}

// defaultOrOff reads a field where zero means def and a negative value
// off, returned as 0.
func defaultOrOff[T int | int64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

func (cfg *Config) fallback() []encoding.Codec {
	if cfg.Fallback == nil {
		return []encoding.Codec{encoding.Zstd(), encoding.Brotli(), encoding.Gzip()}
	}
	return cfg.Fallback
}

func (cfg *Config) recompressAfter() int {
	return defaultOrOff(cfg.FallbackRecompressAfter, DefaultFallbackRecompressAfter)
}

func (cfg *Config) cacheBytes() int64 {
	if cfg.FallbackCacheBytes == 0 {
		return DefaultFallbackCacheBytes
	}
	return cfg.FallbackCacheBytes
}

func (cfg *Config) minSize() int64 {
	n, _ := minSize(cfg.FallbackMinSize) // check has refused the others
	return n
}
