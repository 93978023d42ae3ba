package precompressed

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/squeezehttp/squeeze/encoding"
)

// entryOverhead is what the cache charges an entry beyond its bytes, so
// that many tiny "not worth compressing" answers still count.
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
	body  []byte // nil when compressing did not make the file smaller
	sum   string
	ready chan struct{}
	err   error
	elem  *list.Element // nil until ready and accounted
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

// get returns the entry for key, calling fill to make it when absent.
func (c *memCache) get(key cacheKey, fill func() ([]byte, error)) *compressed {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		if e.elem != nil {
			c.lru.MoveToFront(e.elem)
		}
		c.mu.Unlock()
		<-e.ready
		return e
	}
	e := &compressed{key: key, ready: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	e.body, e.err = fill()
	if e.err == nil && e.body != nil {
		sum := sha256.Sum256(e.body)
		e.sum = hashString(sum[:])
	}
	close(e.ready)

	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil {
		delete(c.entries, key) // let a later request try again
		return e
	}
	e.elem = c.lru.PushFront(e)
	c.used += e.cost()
	for c.used > c.budget && c.lru.Len() > 0 {
		old := c.lru.Remove(c.lru.Back()).(*compressed)
		delete(c.entries, old.key)
		c.used -= old.cost()
	}
	return e
}

func (e *compressed) cost() int64 { return int64(len(e.body)) + entryOverhead }

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
	e := s.cache.get(key, func() ([]byte, error) { return s.compress(v, codec) })
	if e.err != nil {
		s.invalidate(res.name)
		http.Error(w, "500 cannot compress file", http.StatusInternalServerError)
		return true
	}
	if e.body == nil {
		return false
	}
	w.Header().Set("ETag", etag(e.sum, coding))
	http.ServeContent(codingWriter(w, coding), r, "", v.modTime, bytes.NewReader(e.body))
	return true
}

// compress reads v and encodes it with codec at its default level,
// returning nil when the result is not smaller.
func (s *server) compress(v *variant, codec encoding.Codec) ([]byte, error) {
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
	_, _, level := codec.Levels()
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
