package precompressed

import (
	"cmp"
	"math"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/squeezehttp/squeeze/internal/contentcache"
	"github.com/squeezehttp/squeeze/negotiate"
)

// maxRecompressQueue bounds the files waiting to be re-made at the best
// level: a burst beyond it recompresses only the first ones, and the
// others are queued again by a later response.
const maxRecompressQueue = 64

// fallbackState is what the server learns about one version of a file it
// serves from the fallback cache: how often it was sent, which codings
// clients weighed highest, and, once recompressed, the sizes at the best
// levels that order the codings smallest first.
type fallbackState struct {
	sent   atomic.Int64
	asked  atomic.Uint32 // bit i: s.fallback[i] was among a request's highest-weighted codings
	queued atomic.Uint32 // bit i: recompressed, or waiting to be
	done   atomic.Uint32 // bit i: recompressed, its best-level bytes in the cache
	sizes  []atomic.Int64
	order  atomic.Pointer[[]string]      // fallback codings smallest first; nil until one is recompressed
	ready  []atomic.Pointer[readyHeader] // per fallback codec, the header values of its cached bytes
	asks   atomic.Pointer[askedMemo]     // the latest Accept-Encoding's asked mask
}

// askedMemo is the asked mask of one Accept-Encoding value for one chosen
// fallback codec. A client sends the same value with every request, so a
// file's responses parse each value once, not once per response.
type askedMemo struct {
	accept string
	chosen int
	mask   uint32
}

// fallbackState returns v's state, made on first use.
func (s *server) fallbackState(v *variant) *fallbackState {
	if st := v.digest.fallback.Load(); st != nil {
		return st
	}
	st := &fallbackState{sizes: make([]atomic.Int64, len(s.fallback)), ready: make([]atomic.Pointer[readyHeader], len(s.fallback))}
	if v.digest.fallback.CompareAndSwap(nil, st) {
		return st
	}
	return v.digest.fallback.Load()
}

// fallbackOffers returns the fallback codings in the order that breaks
// ties for v: smallest first once v was recompressed, unless
// Config.PreferOrder.
func (s *server) fallbackOffers(v *variant) []string {
	if !s.preferOrder {
		if st := v.digest.fallback.Load(); st != nil {
			if o := st.order.Load(); o != nil {
				return *o
			}
		}
	}
	return s.fallbackNames
}

// noteSent counts a response of v from the fallback cache in coding, the
// i-th fallback codec, made says whether the entry was compressed for
// it. Once v was sent recompressAfter times, the codings the clients
// weighed highest that are not recompressed yet are queued.
func (s *server) noteSent(r *http.Request, v *variant, i int, made bool) {
	if s.recompressAfter <= 0 {
		return
	}
	st := s.fallbackState(v)
	bit := uint32(1) << i
	if made && st.done.Load()&bit != 0 {
		// Evicted since it was recompressed, and made again at the
		// default level: recompress it again.
		st.done.And(^bit)
		st.queued.And(^bit)
	}
	all := uint32(1)<<len(s.fallback) - 1
	if st.queued.Load() == all {
		return // nothing left to learn: no per-request work
	}
	// Or only when it adds a bit: most responses add none, and a load
	// leaves the shared word unwritten.
	if asked, old := s.askedCodings(st, r, i), st.asked.Load(); old|asked != old {
		st.asked.Or(asked)
	}
	// Counted only until the count is reached: the shared word is not
	// written by every response.
	if n := int64(s.recompressAfter); st.sent.Load() < n && st.sent.Add(1) < n {
		return
	}
	for {
		queued := st.queued.Load()
		todo := st.asked.Load() &^ queued
		if todo == 0 {
			return
		}
		if st.queued.CompareAndSwap(queued, queued|todo) {
			if !s.recompressor.add(recompressJob{v: v, st: st, codings: todo}) {
				st.queued.And(^todo) // the queue is full: a later response tries again
			}
			return
		}
	}
}

// askedCodings returns the fallback codings the request weighs as high as
// the chosen one, the i-th: those a size could decide between. The mask
// of a one-line Accept-Encoding is kept in st for the next response.
func (s *server) askedCodings(st *fallbackState, r *http.Request, i int) uint32 {
	values := r.Header["Accept-Encoding"]
	if m := st.asks.Load(); m != nil && len(values) == 1 && m.chosen == i && m.accept == values[0] {
		return m.mask
	}
	a := negotiate.Parse(values)
	q := a.Quality(s.fallbackNames[i])
	var mask uint32
	for j, name := range s.fallbackNames {
		if j == i || a.Quality(name) == q {
			mask |= 1 << j
		}
	}
	if len(values) == 1 {
		st.asks.Store(&askedMemo{accept: values[0], chosen: i, mask: mask})
	}
	return mask
}

// recompressor re-makes files of the fallback cache at their codecs'
// highest levels, in the background and one file at a time. Its one
// goroutine runs only while there is work, so a server dropped with an
// empty queue leaves none behind.
type recompressor struct {
	s       *server
	mu      sync.Mutex
	queue   []recompressJob
	running bool
}

// recompressJob is one file to recompress in the codings of a mask of
// s.fallback.
type recompressJob struct {
	v       *variant
	st      *fallbackState
	codings uint32
}

// add queues job, reporting false when the queue is full.
func (r *recompressor) add(job recompressJob) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.queue) >= maxRecompressQueue {
		return false
	}
	r.queue = append(r.queue, job)
	if !r.running {
		r.running = true
		go r.run()
	}
	return true
}

func (r *recompressor) run() {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		job := r.queue[0]
		r.queue[0] = recompressJob{}
		r.queue = r.queue[1:]
		r.mu.Unlock()
		r.s.recompress(job)
	}
}

// recompress makes job's file at the best level of each of its codings
// and puts the bytes where the fallback finds them: in the entry of the
// coding's default level, the key a middleware sharing the cache looks up
// too, filled if absent and replaced if larger. The file is read again and
// must still be the content the entries are keyed by: they answer for that
// content to everyone who shares the cache. The ETag changes with the
// bytes, as it must: it is their hash.
func (s *server) recompress(job recompressJob) {
	v, st := job.v, job.st
	p := v.digest.content.Load()
	if p == nil {
		st.queued.And(^job.codings)
		return
	}
	src, err := s.readSum(v, *p)
	if err != nil {
		st.queued.And(^job.codings)
		return
	}
	for i, codec := range s.fallback {
		bit := uint32(1) << i
		if job.codings&bit == 0 {
			continue
		}
		_, best, def := codec.Levels()
		body, err := s.compress(v, src, codec, best)
		if err != nil {
			st.queued.And(^bit)
			continue
		}
		key := contentcache.Key{Sum: *p, Size: v.size, Coding: codec.Name(), Level: def}
		if e, made := s.cache.Do(key, func() ([]byte, error) { return body, nil }); !made && body != nil {
			s.cache.Replace(e, body)
		}
		size := int64(math.MaxInt64) // no smaller than the file: last
		if body != nil {
			size = int64(len(body))
		}
		st.sizes[i].Store(size)
		st.done.Or(bit)
	}
	s.orderFallback(st)
}

// orderFallback sets st's order: the recompressed codings by their size,
// then the others in the Fallback order.
func (s *server) orderFallback(st *fallbackState) {
	order := slices.Clone(s.fallbackNames)
	size := func(name string) int64 {
		i := slices.Index(s.fallbackNames, name)
		if n := st.sizes[i].Load(); n > 0 {
			return n
		}
		return math.MaxInt64
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(size(a), size(b)) })
	st.order.Store(&order)
}
