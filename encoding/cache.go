package encoding

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// Cache holds compressed bodies by the content they encode, so that a body
// a handler sends again and again is not compressed again and again: at
// most twice, then served from the cache (see below). Set it in
// Config.Cache; the same Cache may serve several Middlewares and
// precompressed's file servers (precompressed.Config.Cache), and then a
// file and a handler's output with equal bytes share one entry.
//
// An entry's key is the SHA-256 of the uncompressed body with its length,
// the coding and its level: never the path or the ETag, so a handler that
// changes its body under the same ETag gets the new bytes, and nobody can
// make two bodies share an entry. Every body looked up pays that hash,
// hit or miss: one pass over the body, far cheaper than compressing it. A
// hit then sends the stored bytes with a Content-Length, without copying
// them; a miss compresses as without a cache and keeps a copy of the
// result. Requests for a body being compressed wait for that compression
// instead of doing it again, so each entry is made once at a time.
//
// A body is looked up and kept from the second time it is seen, not the
// first: the first time it is compressed as without a cache and only a
// 64-bit keyed hash of it (maphash, a few times cheaper than SHA-256) is
// remembered, in a fixed table of 8192, so that bodies that never repeat
// (a JSON reply with a timestamp) cost that one pass over their bytes and
// no memory, and cannot push out those that do. precompressed keeps the
// files it compresses the first time.
//
// Cached are only responses any client may be given: not those to a
// request with Authorization, nor those with Set-Cookie or with
// Cache-Control no-store or private, nor padded ones (Config.Jitter), nor
// dictionary-compressed ones (Config.Dictionaries); the header is read
// under every spelling of its names, trailers included. A hit sends the
// same bytes a fresh compression would, unless precompressed's background
// recompression replaced them with a smaller encoding of the same
// content, or a file server sharing the cache found the content no smaller
// compressed, and then it goes out as it is.
//
// A hit is quicker than a miss, so a client can tell whether an equal body
// was sent lately; among responses any client may be given, that tells
// nothing a request for them would not.
//
// The budget bounds the bytes of the stored bodies plus a fixed overhead
// per entry; the entries used least recently go first, and an entry larger
// than a quarter of the budget is not kept. A Cache is safe for concurrent
// use.
type Cache struct {
	c *contentcache.Cache
}

// DefaultCacheBytes is the budget of NewCache(0): 32 MiB, as precompressed
// gives its own cache (precompressed.DefaultFallbackCacheBytes).
const DefaultCacheBytes = 32 << 20

// NewCache returns a Cache of budget bytes; 0 means DefaultCacheBytes, as
// zero means the default throughout the module, and a negative budget is
// an error.
func NewCache(budget int64) (*Cache, error) {
	switch {
	case budget < 0:
		return nil, fmt.Errorf("encoding: NewCache: budget %d is negative; 0 means DefaultCacheBytes", budget)
	case budget == 0:
		budget = DefaultCacheBytes
	}
	return &Cache{c: contentcache.New(budget)}, nil
}

// Used returns how many bytes of the budget the entries take.
func (c *Cache) Used() int64 { return c.c.Used() }

func init() {
	// precompressed reaches the store behind a Cache through this, and
	// tells the middleware around it what the store did.
	contentcache.Hook = func(public any) *contentcache.Cache { return public.(*Cache).c }
	contentcache.Served = func(w http.ResponseWriter, hit bool) {
		if x := middlewareWriter(w); x != nil {
			x.cache = CacheMiss
			if hit {
				x.cache = CacheHit
			}
		}
	}
}

// CacheResult says what Config.Cache did for one response.
type CacheResult uint8

const (
	// CacheNotLookedUp: no cache, or a response that was not compressed
	// whole or may not be cached.
	CacheNotLookedUp CacheResult = iota
	// CacheHit: the compressed body came from the cache, or from a
	// compression of the same body that another request was doing.
	CacheHit
	// CacheMiss: the body was compressed, and the result kept if the
	// body had come before.
	CacheMiss
)

// String returns "" for CacheNotLookedUp, "hit" or "miss", fit for a metric
// label or a log field.
func (c CacheResult) String() string {
	switch c {
	case CacheNotLookedUp:
		return ""
	case CacheHit:
		return "hit"
	case CacheMiss:
		return "miss"
	}
	return "CacheResult(" + strconv.Itoa(int(c)) + ")"
}

// cacheable reports whether the whole body about to be compressed may be
// looked up in, and stored into, the cache. bare says h holds nothing but
// a Content-Type.
func (w *responseWriter) cacheable(h http.Header, bare bool) bool {
	switch {
	case w.s.cache == nil, w.offer.dictionary, w.s.jitter > 0:
		// The padding is what hides the length; a dictionary encoding
		// depends on more than the body.
		return false
	case w.req.Header["Authorization"] != nil:
		// RFC 9111 §3.5: what answers a request with credentials is that
		// user's, unless the response says otherwise.
		return false
	case bare:
		return true
	}
	// Every key is looked at, not only the canonical ones: net/http sends
	// a key set directly in the map as it is ("cache-control"), and a
	// Set-Cookie set after the body under http.TrailerPrefix as a trailer.
	for k, v := range h {
		name := strings.TrimPrefix(k, http.TrailerPrefix)
		switch {
		case strings.EqualFold(name, "Set-Cookie"):
			return false
		case strings.EqualFold(name, "Cache-Control") && (hasDirective(v, "no-store") || hasDirective(v, "private")):
			return false
		}
	}
	return true
}

// hasDirective reports whether the Cache-Control lines name directive,
// with or without an argument (RFC 9111 §5.2: private="Set-Cookie" is
// private too).
func hasDirective(lines []string, directive string) bool {
	for _, v := range lines {
		for v != "" {
			var elem string
			elem, v, _ = strings.Cut(v, ",")
			name, _, _ := strings.Cut(elem, "=")
			if strings.EqualFold(strings.TrimSpace(name), directive) {
				return true
			}
		}
	}
	return false
}

// seenBefore reports whether the held-back body, which may be cached, came
// lately: only then is it looked up. A body seen for the first time is
// compressed as without a cache, and counts as a miss.
func (w *responseWriter) seenBefore() bool {
	if w.s.cache.c.Seen(w.held()) {
		return true
	}
	w.cache = CacheMiss
	return false
}

// cachedWhole returns the compressed form of the held-back body, from the
// cache or compressed into it now: the bytes a compression without the
// cache would send. It returns nil when the body is to go out as it is:
// its encoding failed, or a precompressed file server sharing the cache
// found the same content no smaller compressed and kept that answer.
func (w *responseWriter) cachedWhole() []byte {
	src := w.held()
	p := w.offer.pool
	start := w.startTimer()
	k := contentcache.Key{Sum: sha256.Sum256(src), Size: int64(len(src)), Coding: p.coding, Level: p.level}
	e, made := w.s.cache.c.Do(k, func() ([]byte, error) { return p.encodeKept(src) })
	w.stopTimer(start)
	if e.Err() != nil {
		return nil
	}
	body := e.Body().Bytes
	if body == nil {
		return nil // sent as it is, so nothing was served from the cache
	}
	w.cache = CacheHit
	if made {
		w.cache = CacheMiss
	}
	return body
}

// encodeKept encodes src whole into memory of its own, to be kept: the
// same bytes encodeWhole sends, even when they are no smaller than src, so
// that a hit sends what a fresh compression would.
func (p *encoderPool) encodeKept(src []byte) ([]byte, error) {
	buf := getBuffer()
	defer putBuffer(buf)
	out, err := p.encode((*buf)[:0], src)
	*buf = out[:0]
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), out...), nil
}
