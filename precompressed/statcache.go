package precompressed

import (
	"sync"
	"sync/atomic"
)

// statEntryOverhead is what the stat cache charges every entry beyond the
// bytes its caller counts and its name: the entry, its map slot and the
// string header of its key.
const statEntryOverhead = 96

// statEntryShare is the fraction of the budget one entry may take at most:
// a longer name is looked up on each request instead of being kept, so
// that a handful of huge names cannot empty the cache.
const statEntryShare = 64

// statCache holds what names resolved to, found or not, within a byte
// budget that counts the names themselves. A request may name any string,
// so the cache's memory must follow the bytes it keeps, not the number of
// entries. When full it drops first the entries not read since the last
// sweep (a second chance, as CLOCK gives), so that a flood of names asked
// for once pushes out one another rather than the files being served.
type statCache[V any] struct {
	mu      sync.RWMutex
	budget  int64
	used    int64
	entries map[string]*statEntry[V]
}

type statEntry[V any] struct {
	val  V
	cost int64
	read atomic.Bool // since the last sweep
}

func newStatCache[V any](budget int64) *statCache[V] {
	return &statCache[V]{budget: budget, entries: make(map[string]*statEntry[V])}
}

// get returns the value kept for name.
func (c *statCache[V]) get(name string) (val V, ok bool) {
	c.mu.RLock()
	e := c.entries[name]
	c.mu.RUnlock()
	if e == nil {
		return val, false
	}
	if !e.read.Load() { // a store only when it changes: no shared write per hit
		e.read.Store(true)
	}
	return e.val, true
}

// put keeps val for name, charging cost bytes for it beyond the name and
// statEntryOverhead. The cache keeps name itself, so the caller must own
// it: not a slice of a larger string, such as a request line, that the
// cache would keep whole without counting it.
func (c *statCache[V]) put(name string, val V, cost int64) {
	cost += heapBytes(len(name)) + statEntryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.entries[name]
	if old != nil {
		delete(c.entries, name)
		c.used -= old.cost
	}
	if cost > c.budget/statEntryShare {
		return
	}
	e := &statEntry[V]{val: val, cost: cost}
	if old != nil {
		e.read.Store(old.read.Load())
	}
	c.entries[name] = e
	c.used += cost
	if c.used > c.budget {
		c.sweep()
	}
}

// remove forgets name.
func (c *statCache[V]) remove(name string) {
	c.mu.Lock()
	if e := c.entries[name]; e != nil {
		delete(c.entries, name)
		c.used -= e.cost
	}
	c.mu.Unlock()
}

// sweep drops entries until the cache holds at most three quarters of its
// budget, so that the next sweep is some requests away: first entries
// not read since the last sweep, clearing the mark of the others, then
// any. Map order is random, so who goes among equals is too. c.mu is held.
func (c *statCache[V]) sweep() {
	target := c.budget / 4 * 3
	for pass := 0; pass < 2 && c.used > target; pass++ {
		for name, e := range c.entries {
			if c.used <= target {
				return
			}
			if pass == 0 && e.read.Swap(false) {
				continue
			}
			delete(c.entries, name)
			c.used -= e.cost
		}
	}
}

// heapBytes is what the heap spends on an object of n bytes, an upper
// bound: small objects are rounded up to a size class, at most an eighth
// more, large ones to whole 8 KiB pages.
func heapBytes(n int) int64 {
	if n > 32<<10 {
		return int64(n+8<<10-1) &^ (8<<10 - 1)
	}
	return int64(n + n/8)
}

// bytes reports how much of the budget is in use, for tests.
func (c *statCache[V]) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
