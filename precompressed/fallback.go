package precompressed

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/squeezehttp/squeeze/encoding"
)

// entryOverhead is what the cache charges an entry beyond its bytes and
// its name, so that many tiny "not worth compressing" answers still count.
const entryOverhead = 256

// cacheKey identifies one encoding of one version of a file. Size and
// modification time stand for the content, as they do for the stat cache.
type cacheKey struct {
	name    string
	size    int64
	modTime int64
	coding  string
}

// compressed is one entry of the on-the-fly cache.
type compressed struct {
	key   cacheKey
	cur   atomic.Pointer[payload] // set once ready; replaced by a recompression
	ready chan struct{}
	err   error
	elem  *list.Element // nil until ready and accounted
}

// payload is the compressed form of a file and its hash.
type payload struct {
	body []byte // nil when compressing did not make the file smaller
	sum  string
}

func newPayload(body []byte) *payload {
	p := &payload{body: body}
	if body != nil {
		sum := sha256.Sum256(body)
		p.sum = hashString(sum[:])
	}
	return p
}

// memCache holds files compressed on the fly, least recently used first
// out, within a byte budget. Concurrent requests for an entry being made
// wait for it instead of compressing the same file again.
type memCache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	lru     list.List // of *compressed, most recent at the front
	entries map[cacheKey]*compressed
}

func newMemCache(budget int64) *memCache {
	return &memCache{budget: budget, entries: make(map[cacheKey]*compressed)}
}

// get returns the entry for key, calling fill to make it when absent;
// made reports whether this call made it.
func (c *memCache) get(key cacheKey, fill func() ([]byte, error)) (e *compressed, made bool) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		if e.elem != nil {
			c.lru.MoveToFront(e.elem)
		}
		c.mu.Unlock()
		<-e.ready
		return e, false
	}
	e = &compressed{key: key, ready: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	body, err := fill()
	e.err = err
	if err == nil {
		e.cur.Store(newPayload(body))
	}
	close(e.ready)

	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil {
		delete(c.entries, key) // let a later request try again
		return e, true
	}
	e.elem = c.lru.PushFront(e)
	c.used += e.cost()
	c.evict()
	return e, true
}

// replace swaps in a better body for e, if e is still cached and body is
// smaller than what it holds.
func (c *memCache) replace(e *compressed, body []byte) {
	p := newPayload(body)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[e.key] != e || e.elem == nil || len(body) >= len(e.cur.Load().body) {
		return
	}
	c.used -= e.cost()
	e.cur.Store(p)
	c.used += e.cost()
	c.evict()
}

// evict drops least recently used entries until the cache is within its
// budget. c.mu is held.
func (c *memCache) evict() {
	for c.used > c.budget && c.lru.Len() > 0 {
		old := c.lru.Remove(c.lru.Back()).(*compressed)
		delete(c.entries, old.key)
		c.used -= old.cost()
	}
}

func (e *compressed) cost() int64 {
	return int64(len(e.cur.Load().body)) + int64(len(e.key.name)) + entryOverhead
}

// bytes reports how much of the budget is in use, for tests.
func (c *memCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// serveCompressed answers with the original compressed in coding, from
// the cache or compressed now, once. It reports false, having written
// nothing, when the compressed form is no smaller than the file.
func (s *server) serveCompressed(w http.ResponseWriter, r *http.Request, res *resource, coding string) bool {
	var codec encoding.Codec
	for _, c := range s.fallback {
		if c.Name() == coding {
			codec = c
		}
	}
	v := res.original
	key := cacheKey{name: v.name, size: v.size, modTime: v.modTime.UnixNano(), coding: coding}
	_, _, level := codec.Levels()
	e, made := s.cache.get(key, func() ([]byte, error) { return s.compress(v, codec, level) })
	if e.err != nil {
		s.invalidate(res.name)
		http.Error(w, "500 cannot compress file", http.StatusInternalServerError)
		return true
	}
	p := e.cur.Load()
	if p.body == nil {
		return false
	}
	if made && s.recompress {
		go s.recompressBest(e, v, codec)
	}
	w.Header().Set("ETag", etag(p.sum, coding))
	http.ServeContent(codingWriter(w, coding), r, "", v.modTime, bytes.NewReader(p.body))
	return true
}

// recompressBest re-makes e at codec's highest level, one file at a time
// so that the work stays in the background, and swaps it in when smaller.
// The ETag changes with the bytes, as it must.
func (s *server) recompressBest(e *compressed, v *variant, codec encoding.Codec) {
	s.recompressing.Lock()
	defer s.recompressing.Unlock()
	_, best, _ := codec.Levels()
	if body, err := s.compress(v, codec, best); err == nil && body != nil {
		s.cache.replace(e, body)
	}
}

// compress reads v and encodes it with codec at level, returning nil when
// the result is not smaller.
func (s *server) compress(v *variant, codec encoding.Codec, level int) ([]byte, error) {
	f, err := s.fsys.Open(v.name)
	if err != nil {
		return nil, fmt.Errorf("precompressed: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, v.size+1))
	if err != nil {
		return nil, fmt.Errorf("precompressed: reading %s: %w", v.name, err)
	}
	if int64(len(src)) != v.size {
		return nil, fmt.Errorf("precompressed: %s changed size while being read", v.name)
	}
	var out []byte
	if ae, ok := codec.(encoding.AppendEncoder); ok {
		out, err = ae.AppendEncode(nil, src, level)
	} else {
		out, err = encodeStream(codec, src, level)
	}
	if err != nil {
		return nil, fmt.Errorf("precompressed: %s %s: %w", codec.Name(), v.name, err)
	}
	if len(out) >= len(src) {
		return nil, nil
	}
	return out, nil
}

// encodeStream encodes src through codec's streaming Writer.
func encodeStream(codec encoding.Codec, src []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := codec.NewWriter(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(src); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
