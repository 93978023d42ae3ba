// Package contentcache holds compressed bodies by the content they encode,
// within a byte budget: the store behind encoding.Cache, which the
// middleware and precompressed's on-the-fly fallback share.
package contentcache

import (
	"crypto/sha256"
	"errors"
	"hash/maphash"
	"net/http"
	"sync"
	"sync/atomic"
)

// EntryOverhead is what an entry is charged beyond its bytes: the entry,
// its map slot and its key, so that many small entries still count.
const EntryOverhead = 256

// Key is the address of one encoding of one body: the SHA-256 of the
// uncompressed bytes and their length, the coding and its level. SHA-256
// because a collision would hand one response's bytes to another: nobody
// can find two bodies that share a key, whatever they know of the server.
type Key struct {
	Sum    [sha256.Size]byte
	Size   int64
	Coding string
	Level  int
	// Decoded marks the other kind of entry: the content of a file decoded
	// from Coding, addressed by the file's version (see precompressed).
	Decoded bool
}

// Body is what an entry holds. Bytes is nil when the encoding was no
// smaller than the original, which is worth remembering too. A Body never
// changes once made; a better encoding replaces it whole.
type Body struct {
	Bytes []byte
	tag   atomic.Pointer[string]
}

// Tag returns the tag that derive makes from b.Bytes, made at most a few
// times (racing callers may each make it) and kept: an ETag a file server
// needs on every response.
func (b *Body) Tag(derive func([]byte) string) string {
	if t := b.tag.Load(); t != nil {
		return *t
	}
	t := derive(b.Bytes)
	b.tag.Store(&t)
	return t
}

// Entry is one key's place in the cache.
type Entry struct {
	key   Key
	cur   atomic.Pointer[Body] // set before ready closes; replaced by Replace
	ready chan struct{}
	err   error

	// The recency list, guarded by the cache's mutex; linked is false until
	// the entry is ready and charged, and again once evicted.
	prev, next *Entry
	linked     bool
	cost       int64
}

// Body returns what e holds; e must be ready (returned by Do).
func (e *Entry) Body() *Body { return e.cur.Load() }

// Key returns the key e is kept under.
func (e *Entry) Key() Key { return e.key }

// Err is the error the fill of e returned, nil for an entry that holds a
// Body.
func (e *Entry) Err() error { return e.err }

// errFillPanicked is what waiters see when the fill they waited for
// panicked: the panic goes on in the filler's goroutine.
var errFillPanicked = errors.New("contentcache: the fill panicked")

// Cache holds entries, least recently used first out, within a budget of
// bytes. Concurrent requests for a key being filled wait for that fill:
// each key is encoded once at a time.
type Cache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	entries map[Key]*Entry
	lru     Entry // sentinel: lru.next is the most recent entry

	// seen holds the maphash of contents seen lately, each in the slot
	// that hash picks (see Seen).
	seed maphash.Seed
	seen [seenSlots]atomic.Uint64

	// OnWait, when set, is called by a Do that is about to wait for
	// another's fill: tests use it to know that requests overlap.
	OnWait func()
}

// New returns a cache of budget bytes, which must be positive.
func New(budget int64) *Cache {
	c := &Cache{budget: budget, entries: make(map[Key]*Entry), seed: maphash.MakeSeed()}
	c.lru.next, c.lru.prev = &c.lru, &c.lru
	return c
}

// Budget returns the budget the cache was made with.
func (c *Cache) Budget() int64 { return c.budget }

// seenSlots is the size of the table of contents seen once: a body that
// repeats while fewer than about that many others pass is kept.
const seenSlots = 1 << 13

// Seen reports whether content was seen lately, and remembers it: the
// admission test for what is worth hashing with SHA-256 and keeping. It
// hashes content with maphash under the cache's own random seed, a few
// times faster than SHA-256, so that a body that never repeats (dynamic
// JSON) costs that pass and no memory, and cannot push out bodies that
// do. A collision here only admits a body early or late: the Key decides
// what is served.
func (c *Cache) Seen(content []byte) bool {
	h := maphash.Bytes(c.seed, content)
	slot := &c.seen[h%seenSlots]
	fp := h | 1 // never the empty slot's 0
	if slot.Load() == fp {
		return true
	}
	slot.Store(fp)
	return false
}

// Do returns the entry for k, calling fill to make it when absent; made
// reports whether this call filled it. A fill that fails is not kept, so
// that a later request tries again; its callers, the waiters included, see
// the error in Entry.Err. An entry larger than a quarter of the budget is
// returned but not kept.
func (c *Cache) Do(k Key, fill func() ([]byte, error)) (e *Entry, made bool) {
	c.mu.Lock()
	if e, ok := c.entries[k]; ok {
		if e.linked {
			c.unlink(e)
			c.pushFront(e)
		}
		c.mu.Unlock()
		if c.OnWait != nil {
			select {
			case <-e.ready:
			default:
				c.OnWait()
			}
		}
		<-e.ready
		return e, false
	}
	e = &Entry{key: k, ready: make(chan struct{})}
	c.entries[k] = e
	c.mu.Unlock()

	// close(e.ready) runs whatever fill does, a panic included, so that no
	// waiter is left behind.
	var body []byte
	e.err = errFillPanicked
	defer func() {
		c.settle(e, body)
	}()
	body, e.err = fill()
	return e, true
}

// settle publishes the outcome of e's fill and charges or forgets it.
func (c *Cache) settle(e *Entry, body []byte) {
	if e.err == nil {
		e.cur.Store(&Body{Bytes: body})
	}
	close(e.ready)
	c.mu.Lock()
	defer c.mu.Unlock()
	e.cost = int64(len(body)) + EntryOverhead
	if e.err != nil || e.cost > c.budget/4 {
		delete(c.entries, e.key)
		return
	}
	c.pushFront(e)
	c.used += e.cost
	c.evict()
}

// Replace swaps in body for e's if e is still cached and body is smaller:
// a better encoding of the same content, made later.
func (c *Cache) Replace(e *Entry, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := e.cur.Load()
	if !e.linked || old == nil || old.Bytes == nil || len(body) >= len(old.Bytes) {
		return
	}
	e.cur.Store(&Body{Bytes: body})
	cost := int64(len(body)) + EntryOverhead
	c.used += cost - e.cost
	e.cost = cost
}

// Used returns the bytes charged to entries in the cache.
func (c *Cache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// Len returns the number of entries held, filled or being filled.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// evict drops the least recently used entries until the cache is within
// its budget. c.mu is held.
func (c *Cache) evict() {
	for c.used > c.budget && c.lru.prev != &c.lru {
		old := c.lru.prev
		c.unlink(old)
		delete(c.entries, old.key)
		c.used -= old.cost
	}
}

func (c *Cache) pushFront(e *Entry) {
	e.prev, e.next = &c.lru, c.lru.next
	c.lru.next.prev = e
	c.lru.next = e
	e.linked = true
}

func (c *Cache) unlink(e *Entry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
	e.linked = false
}

// Hook lets a package that holds the public wrapper of a Cache hand the
// Cache to another package of this module, without exporting it: package
// encoding sets it when initialized, precompressed (which imports
// encoding) calls it.
var Hook func(public any) *Cache

// Served lets a handler that sent a body from a Cache tell the middleware
// whose ResponseWriter w is, for its Stats: hit says the entry was there
// before. Package encoding sets it when initialized; it ignores a w that
// is not its own.
var Served func(w http.ResponseWriter, hit bool)
