package contentcache

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func key(body string, coding string) Key {
	return Key{Sum: sha256.Sum256([]byte(body)), Size: int64(len(body)), Coding: coding, Level: 1}
}

// Requests that arrive while a key is being filled wait for that fill:
// the body is encoded once, and every caller gets its result.
func TestConcurrentFirstRequestsFillOnce(t *testing.T) {
	const callers = 8
	c := New(1 << 20)
	var waiting atomic.Int64
	allWaiting := make(chan struct{})
	c.OnWait = func() {
		if waiting.Add(1) == callers-1 {
			close(allWaiting)
		}
	}
	var fills atomic.Int64
	fill := func() ([]byte, error) {
		fills.Add(1)
		select {
		case <-allWaiting:
		case <-time.After(time.Minute): // only when Do does not wait: a failure
		}
		return []byte("encoded"), nil
	}
	var wg sync.WaitGroup
	var made atomic.Int64
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, m := c.Do(key("body", "br"), fill)
			if m {
				made.Add(1)
			}
			if e.Err() != nil {
				t.Errorf("caller got %v", e.Err())
			} else if got := e.Body().Bytes; string(got) != "encoded" {
				t.Errorf("caller got %q, want the fill's bytes", got)
			}
		}()
	}
	wg.Wait()
	if fills.Load() != 1 || made.Load() != 1 {
		t.Errorf("%d fills, %d callers made the entry; want 1 and 1", fills.Load(), made.Load())
	}
}

// The bytes charged never pass the budget, however many distinct bodies
// come, and the entries used last are the ones kept.
func TestBudgetHoldsUnderThousandBodies(t *testing.T) {
	const budget = 64 << 10
	c := New(budget)
	for i := range 1000 {
		body := fmt.Sprintf("body %d", i)
		c.Do(key(body, "gzip"), func() ([]byte, error) { return make([]byte, 100+i%900), nil })
		if used := c.Used(); used > budget {
			t.Fatalf("after %d bodies the cache charges %d bytes, over its budget %d", i+1, used, budget)
		}
	}
	if _, made := c.Do(key("body 999", "gzip"), nil); made {
		t.Error("the most recent entry was evicted")
	}
	if _, made := c.Do(key("body 0", "gzip"), func() ([]byte, error) { return nil, nil }); !made {
		t.Error("the oldest entry is still held after 1000 bodies in a cache for fewer")
	}
}

// A failed fill is not kept, and a panicking one releases its waiters.
func TestFailedFillIsNotKept(t *testing.T) {
	c := New(1 << 20)
	boom := errors.New("boom")
	e, _ := c.Do(key("x", "br"), func() ([]byte, error) { return nil, boom })
	if !errors.Is(e.Err(), boom) {
		t.Fatalf("Err %v, want %v", e.Err(), boom)
	}
	func() {
		defer func() { recover() }()
		c.Do(key("y", "br"), func() ([]byte, error) { panic("fill") })
	}()
	if c.Len() != 0 || c.Used() != 0 {
		t.Fatalf("failed fills left %d entries, %d bytes", c.Len(), c.Used())
	}
	if _, made := c.Do(key("y", "br"), func() ([]byte, error) { return []byte("ok"), nil }); !made {
		t.Error("a key whose fill panicked was not filled again")
	}
}

// An entry larger than a quarter of the budget is returned, not kept.
func TestLargeEntryIsNotKept(t *testing.T) {
	c := New(4096)
	e, _ := c.Do(key("big", "br"), func() ([]byte, error) { return make([]byte, 2048), nil })
	if len(e.Body().Bytes) != 2048 || c.Len() != 0 || c.Used() != 0 {
		t.Errorf("got %d bytes; the cache keeps %d entries, %d bytes; want 2048, 0, 0", len(e.Body().Bytes), c.Len(), c.Used())
	}
}

// Replace takes only a smaller body, and charges the difference.
func TestReplaceTakesOnlySmaller(t *testing.T) {
	c := New(1 << 20)
	e, _ := c.Do(key("x", "br"), func() ([]byte, error) { return make([]byte, 100), nil })
	c.Replace(e, make([]byte, 200))
	if n := len(e.Body().Bytes); n != 100 {
		t.Errorf("a larger body replaced the entry: %d bytes", n)
	}
	c.Replace(e, make([]byte, 60))
	if n, used := len(e.Body().Bytes), c.Used(); n != 60 || used != 60+EntryOverhead {
		t.Errorf("after a smaller replacement: %d bytes, %d charged; want 60, %d", n, used, 60+EntryOverhead)
	}
}

// Seen admits content the second time it comes, not the first.
func TestSeenAdmitsWhatRepeats(t *testing.T) {
	c := New(1 << 20)
	for i := range 100 {
		if c.Seen([]byte(fmt.Sprint("dynamic ", i))) {
			t.Fatalf("body %d: seen before it came", i)
		}
	}
	for i, want := range []bool{false, true, true} {
		if got := c.Seen([]byte("static")); got != want {
			t.Errorf("sighting %d of a repeated body: Seen %v, want %v", i+1, got, want)
		}
	}
}
