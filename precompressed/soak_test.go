package precompressed

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestFallbackCacheStaysWithinBudgetUnderLoad has four clients request 32
// files without sidecars, in every coding and at random, from a cache that
// holds about ten of them, with background recompression on. The bytes the
// cache holds, sampled throughout, never pass its budget, and every body
// decodes to its original.
func TestFallbackCacheStaysWithinBudgetUnderLoad(t *testing.T) {
	const budget = 80 << 10
	fsys := fstest.MapFS{}
	bodies := map[string][]byte{}
	for i := range 32 {
		name := fmt.Sprintf("style%02d.css", i)
		b := []byte(fmt.Sprintf(".rule-%d { color: #%06x; margin: %dpx }\n", i, i*4099, i))
		for len(b) < 8<<10 {
			b = fmt.Appendf(b, ".r%d-%d { padding: %dpx %dpx }\n", i, len(b), len(b)%97, i)
		}
		fsys[name] = file(b)
		bodies["/"+name] = b
	}
	base := runtime.NumGoroutine()
	h := FileServer(fsys, Config{FallbackCacheBytes: budget})
	cache := h.(*server).cache
	srv := httptest.NewServer(h)
	defer srv.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	requests := 0
	done := make(chan struct{})
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			codings := []string{"zstd", "br", "gzip"}
			// 128 requests over 96 file and coding pairs, against a
			// cache that holds about ten: most of them evict, and each
			// miss starts a recompression at the best level.
			for range 32 {
				path := fmt.Sprintf("/style%02d.css", rng.IntN(32))
				coding := codings[rng.IntN(len(codings))]
				err := fetch(t, srv.URL+path, coding, bodies[path])
				mu.Lock()
				requests++
				if err != nil && len(errs) < 5 {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	most := int64(0)
	for sampling := true; sampling; {
		select {
		case <-done:
			sampling = false
		case <-time.After(time.Millisecond):
		}
		most = max(most, cache.Used())
	}
	// Recompressions at the best level go on in the background; wait for
	// them, both for the peak they may reach and so that their allocations
	// do not land in the heap measurements of the tests that follow.
	srv.Close()
	if n := soak.SettleGoroutines(base, 3*time.Minute); n > base {
		t.Fatalf("goroutines %d before, %d three minutes after the last request\n%s", base, n, soak.Stacks())
	}
	most = max(most, cache.Used())
	for _, err := range errs {
		t.Error(err)
	}
	if most > budget {
		t.Errorf("the cache held %d bytes at its peak, over its budget of %d", most, budget)
	}
	t.Logf("%d requests; cache peak %d of %d bytes", requests, most, budget)
}

// fetch gets url accepting coding and checks the decoded body.
func fetch(t testing.TB, url, coding string, want []byte) error {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", coding)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s in %s: %w", url, coding, err)
	}
	got := raw
	if ce := resp.Header.Get("Content-Encoding"); ce != "" {
		got = decode(t, ce, raw)
	}
	if resp.StatusCode != 200 || string(got) != string(want) {
		return fmt.Errorf("%s in %s: status %d, %d bytes decoded, want %d", url, coding, resp.StatusCode, len(got), len(want))
	}
	return nil
}
