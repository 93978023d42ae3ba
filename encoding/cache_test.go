package encoding

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func mustCache(t testing.TB, budget int64) *Cache {
	t.Helper()
	c, err := NewCache(budget)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// statsOf returns a Config's OnResponse that records the last Stats.
func statsOf(last *Stats) func(*http.Request, Stats) {
	var mu sync.Mutex
	return func(_ *http.Request, s Stats) {
		mu.Lock()
		defer mu.Unlock()
		*last = s
	}
}

// A hit sends the very bytes a fresh compression sends, with a
// Content-Length, and Stats tells the miss from the hit.
func TestCacheHitIsByteIdenticalToFreshCompression(t *testing.T) {
	t.Parallel()
	incompressible := make([]byte, 4<<10)
	rand.New(rand.NewSource(1)).Read(incompressible)
	for _, body := range [][]byte{sampleText(40 << 10), incompressible} {
		for _, coding := range builtinCodings {
			fresh := mustNew(t, Config{Codings: []Coding{coding}})
			var st Stats
			cached := mustNew(t, Config{Codings: []Coding{coding}, Cache: mustCache(t, 1<<20), OnResponse: statsOf(&st)})
			name := coding.Codec.Name()
			want := serve(t, fresh, writeBody("text/plain", body), "GET", "Accept-Encoding: "+name)
			// The first request only remembers the body; the second keeps it.
			for i, result := range []CacheResult{CacheMiss, CacheMiss, CacheHit, CacheHit} {
				got := serve(t, cached, writeBody("text/plain", body), "GET", "Accept-Encoding: "+name)
				if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) || got.Header().Get("Content-Encoding") != name {
					t.Fatalf("%s request %d: %s; differs from a fresh compression (%s)", name, i, describe(got), describe(want))
				}
				if cl := got.Header().Get("Content-Length"); cl != fmt.Sprint(got.Body.Len()) {
					t.Errorf("%s request %d: Content-Length %q for %d bytes", name, i, cl, got.Body.Len())
				}
				if st.Cache != result {
					t.Errorf("%s request %d: Stats.Cache %d, want %d", name, i, st.Cache, result)
				}
			}
		}
	}
}

// The key is the content, not the ETag: a handler that changes its body
// and keeps its ETag still gets its new bytes compressed.
func TestCacheKeyIsTheBodyNotTheETag(t *testing.T) {
	t.Parallel()
	m := mustNew(t, Config{Cache: mustCache(t, 1<<20)})
	for _, body := range [][]byte{sampleText(8 << 10), sampleText(9 << 10)} {
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"same"`)
			writeBody("text/plain", body)(w, r)
		}
		got := serve(t, m, h, "GET", "Accept-Encoding: br")
		if !bytes.Equal(decodeBody(t, "br", got.Body.Bytes()), body) {
			t.Fatalf("under an unchanged ETag the client got a body that does not decode to the handler's")
		}
	}
}

// However many distinct bodies go through, the cache stays within its
// budget.
func TestCacheBudgetHoldsUnderThousandBodies(t *testing.T) {
	t.Parallel()
	const budget = 256 << 10
	c := mustCache(t, budget)
	m := mustNew(t, Config{Cache: c})
	for i := range 1000 {
		body := append(sampleText(2<<10), fmt.Sprint(i)...)
		// Twice: a body is kept when it comes again.
		serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
		serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
		if used := c.Used(); used > budget {
			t.Fatalf("after %d bodies the cache holds %d bytes, over its budget of %d", i+1, used, budget)
		}
	}
	if c.c.Len() == 0 {
		t.Error("the cache kept no body: the test proves nothing")
	}
}

// A body that never repeats, such as dynamic JSON, is compressed but not
// kept: the cache costs it a maphash, no memory.
func TestCacheKeepsOnlyBodiesThatRepeat(t *testing.T) {
	t.Parallel()
	c := mustCache(t, 1<<20)
	m := mustNew(t, Config{Cache: c})
	for i := range 200 {
		body := append(sampleText(2<<10), fmt.Sprint(i)...)
		serve(t, m, writeBody("application/json", body), "GET", "Accept-Encoding: zstd")
	}
	if n, used := c.c.Len(), c.Used(); n != 0 || used != 0 {
		t.Errorf("200 bodies seen once left %d entries, %d bytes; want none", n, used)
	}
}

// onceCodec is gzip that counts its one-shot encodes, each of which waits
// for gate to close when gate is set.
type onceCodec struct {
	Codec
	encodes atomic.Int64
	gate    chan struct{}
}

func (c *onceCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	c.encodes.Add(1)
	if c.gate != nil {
		select {
		case <-c.gate:
		case <-time.After(time.Minute): // the others never waited: a failure, reported below
		}
	}
	return c.Codec.(AppendEncoder).AppendEncode(dst, src, level)
}

// Requests for a body that arrive while it is being compressed into the
// cache wait for that compression: it is compressed once, and the others
// count as hits. (The body's first request, which only makes it known,
// compresses for itself.)
func TestCacheConcurrentRequestsCompressOnce(t *testing.T) {
	t.Parallel()
	const requests = 8
	codec := &onceCodec{Codec: Gzip()}
	c := mustCache(t, 1<<20)
	var hits, misses atomic.Int64
	m := mustNew(t, Config{Codings: []Coding{{Codec: codec}}, Cache: c, OnResponse: func(_ *http.Request, s Stats) {
		switch s.Cache {
		case CacheHit:
			hits.Add(1)
		case CacheMiss:
			misses.Add(1)
		}
	}})
	body := sampleText(16 << 10)
	serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
	codec.gate = make(chan struct{})
	var waiting atomic.Int64
	c.c.OnWait = func() {
		if waiting.Add(1) == requests-1 {
			close(codec.gate)
		}
	}
	var wg sync.WaitGroup
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
			if !bytes.Equal(decodeBody(t, "gzip", got.Body.Bytes()), body) {
				t.Errorf("a request got a body that does not decode to the handler's")
			}
		}()
	}
	wg.Wait()
	if n := codec.encodes.Load() - 1; n != 1 {
		t.Errorf("%d compressions of one body for %d overlapping requests, want 1", n, requests)
	}
	if hits.Load() != requests-1 || misses.Load() != 2 {
		t.Errorf("Stats: %d hits, %d misses; want %d and 2 (the first request's and the one that kept it)", hits.Load(), misses.Load(), requests-1)
	}
}

// What may not be given to any client never enters the cache: responses
// to requests with credentials, responses that set a cookie or forbid
// storing or sharing, and padded responses.
func TestCacheNeverStoresPrivateResponses(t *testing.T) {
	t.Parallel()
	body := sampleText(8 << 10)
	cases := []struct {
		name   string
		cfg    Config
		header string // set by the handler, "Name: value"
		raw    bool   // set in the map under the name as given, not canonical
		after  bool   // set after the body is written
		req    string // sent by the client
	}{
		{name: "Cache-Control no-store", header: "Cache-Control: no-store"},
		{name: "Cache-Control private", header: "Cache-Control: max-age=60, private"},
		{name: `Cache-Control private="Set-Cookie"`, header: `Cache-Control: private="Set-Cookie"`},
		{name: "Set-Cookie", header: "Set-Cookie: session=secret"},
		{name: "cache-control private, a key set in the map as given", header: "cache-control: private", raw: true},
		{name: "set-cookie, a key set in the map as given", header: "set-cookie: session=secret", raw: true},
		{name: "Set-Cookie as a trailer, set after the body", header: http.TrailerPrefix + "Set-Cookie: session=secret", raw: true, after: true},
		{name: "Authorization", req: "Authorization: Bearer secret"},
		{name: "Jitter", cfg: Config{Jitter: 32}},
	}
	for _, tc := range cases {
		c := mustCache(t, 1<<20)
		var st Stats
		tc.cfg.Cache, tc.cfg.OnResponse = c, statsOf(&st)
		m := mustNew(t, tc.cfg)
		h := func(w http.ResponseWriter, r *http.Request) {
			set := func() {
				name, value, ok := strings.Cut(tc.header, ": ")
				switch {
				case !ok:
				case tc.raw:
					w.Header()[name] = []string{value}
				default:
					w.Header().Set(name, value)
				}
			}
			if !tc.after {
				set()
			}
			writeBody("text/plain", body)(w, r)
			if tc.after {
				set()
			}
		}
		header := []string{"Accept-Encoding: br"}
		if tc.req != "" {
			header = append(header, tc.req)
		}
		for range 2 {
			got := serve(t, m, h, "GET", header...)
			if got.Header().Get("Content-Encoding") != "br" || !bytes.Equal(decodeBody(t, "br", got.Body.Bytes()), body) {
				t.Fatalf("%s: %s; want the body compressed as without a cache", tc.name, describe(got))
			}
			if st.Cache != CacheNotLookedUp {
				t.Errorf("%s: Stats.Cache %d, want CacheNotLookedUp", tc.name, st.Cache)
			}
		}
		if n := c.c.Len(); n != 0 {
			t.Errorf("%s: the cache holds %d entries, want none", tc.name, n)
		}
	}
}

// A cache must be made by NewCache, with a budget that is not negative:
// anything else is reported when built.
func TestCacheMisconfigurationReportedWhenBuilt(t *testing.T) {
	t.Parallel()
	for _, budget := range []int64{-1, -1 << 20} {
		if _, err := NewCache(budget); err == nil || !strings.HasPrefix(err.Error(), "encoding: ") {
			t.Errorf("NewCache(%d): error %v, want one from encoding", budget, err)
		}
	}
	if _, err := New(Config{Cache: new(Cache)}); err == nil {
		t.Error("New took a Cache not made by NewCache")
	}
}

// TestNewCacheZeroIsTheDefaultBudget: zero means the default, as it does
// for dictionary.NewStore and every Config field.
func TestNewCacheZeroIsTheDefaultBudget(t *testing.T) {
	c, err := NewCache(0)
	if err != nil {
		t.Fatalf("NewCache(0): %v", err)
	}
	if got := c.c.Budget(); got != DefaultCacheBytes {
		t.Errorf("NewCache(0) has a budget of %d, want DefaultCacheBytes (%d)", got, DefaultCacheBytes)
	}
}

// A hit allocates nothing in proportion to the body: the stored bytes go
// out as they are, neither copied into a pooled buffer nor compressed.
func TestCacheHitAllocatesNoBodyCopy(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	const size = 100 << 10
	body := sampleText(size)
	m := mustNew(t, Config{Cache: mustCache(t, 4<<20)})
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = contentTypeJSON
		w.Write(body)
	}))
	r := serveRequest("GET", "Accept-Encoding: br")
	w := &discardWriter{h: http.Header{}}
	h.ServeHTTP(w, r) // the misses: seen, then kept
	h.ServeHTTP(w, r)
	allocs := testing.AllocsPerRun(100, func() {
		clear(w.h)
		h.ServeHTTP(w, r)
	})
	// One: the ResponseWriter, which is not pooled (see responseWriter).
	if allocs > 1 {
		t.Errorf("a hit for a %d-byte body makes %.1f allocations, want at most 1", size, allocs)
	}
}

// A codec that panics while filling the cache leaves no entry behind, and
// the next request compresses.
func TestCacheFillPanicLeavesNoEntry(t *testing.T) {
	t.Parallel()
	codec := &panicOnceCodec{Codec: Gzip()}
	codec.armed.Store(true)
	c := mustCache(t, 1<<20)
	m := mustNew(t, Config{Codings: []Coding{{Codec: codec}}, Cache: c})
	body := sampleText(8 << 10)
	func() {
		defer func() { recover() }()
		serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
	}()
	if n := c.c.Len(); n != 0 {
		t.Fatalf("the panicking compression left %d entries", n)
	}
	got := serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
	if !bytes.Equal(decodeBody(t, "gzip", got.Body.Bytes()), body) {
		t.Fatalf("after a panic: %s", describe(got))
	}
}

type panicOnceCodec struct {
	Codec
	armed atomic.Bool
}

func (c *panicOnceCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if c.armed.CompareAndSwap(true, false) {
		panic("codec failure")
	}
	return c.Codec.(AppendEncoder).AppendEncode(dst, src, level)
}

// BenchmarkCache measures a body through the middleware with the cache: a
// hit (hash, lookup, send), a miss with a body that differs every time, as
// dynamic JSON does (hash, compress, not kept), and the same without a
// cache, per body size and coding.
func BenchmarkCache(b *testing.B) {
	for _, size := range []int{4 << 10, 88 << 10} {
		for _, coding := range []string{"br", "zstd", "gzip"} {
			for _, mode := range []string{"hit", "miss", "off"} {
				b.Run(fmt.Sprintf("%dK/%s/%s", size>>10, coding, mode), func(b *testing.B) {
					benchmarkCache(b, sampleText(size), coding, mode)
				})
			}
		}
	}
}

func benchmarkCache(b *testing.B, body []byte, coding, mode string) {
	cfg := Config{}
	if mode != "off" {
		cfg.Cache = mustCache(b, 64<<20)
	}
	m := mustNew(b, cfg)
	var i uint64
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = contentTypeJSON
		if mode != "hit" {
			i++
			binary.LittleEndian.PutUint64(body, i)
		}
		w.Write(body)
	}))
	r := serveRequest("GET", "Accept-Encoding: "+coding)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		clear(w.h)
		w.n = 0
		h.ServeHTTP(w, r)
	}
	b.ReportMetric(float64(w.n), "out-B")
}

// A dictionary-compressed response depends on the dictionary as well as on
// the body: it is never cached (RFC 9842), and the same body in a plain
// coding still is.
func TestCacheNeverStoresDictionaryResponses(t *testing.T) {
	t.Parallel()
	c := mustCache(t, 1<<20)
	var st Stats
	m := mustNew(t, Config{Dictionaries: &countingDictionaries{permit: true}, Codings: []Coding{{Codec: Gzip()}}, Cache: c, OnResponse: statsOf(&st)})
	body := sampleText(8 << 10)
	for range 3 {
		got := serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip, dcz", "Available-Dictionary: :x:")
		if got.Header().Get("Content-Encoding") != "dcz" || st.Cache != CacheNotLookedUp {
			t.Fatalf("%s; Stats.Cache %d; want dcz, not looked up", describe(got), st.Cache)
		}
	}
	if n := c.c.Len(); n != 0 {
		t.Errorf("dictionary responses left %d entries", n)
	}
	for range 2 {
		serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: gzip")
	}
	if n := c.c.Len(); n != 1 {
		t.Errorf("the same body in gzip left %d entries, want 1", n)
	}
}

// TestCacheResultStringNamesEveryResult: Stats.Cache prints as a word in a
// log line, as Stats.Skip does.
func TestCacheResultStringNamesEveryResult(t *testing.T) {
	want := map[CacheResult]string{CacheNotLookedUp: "", CacheHit: "hit", CacheMiss: "miss"}
	for c, name := range want {
		if c.String() != name {
			t.Errorf("CacheResult(%d).String() = %q, want %q", c, c.String(), name)
		}
	}
	if got := CacheResult(9).String(); got != "CacheResult(9)" {
		t.Errorf("unknown CacheResult: %q", got)
	}
}
