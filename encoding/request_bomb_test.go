package encoding

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// bomb returns n zero bytes encoded in coding with the largest window each
// decoder must accept (zstd 8 MiB, RFC 9659; brotli 16 MiB, RFC 7932), so
// the bomb also asks for as much decoder memory as it can.
func bomb(t testing.TB, coding string, n int) []byte {
	t.Helper()
	return zerosIn(t, coding, n, 8<<20, brotliMaxWindow)
}

// TestRequestBombMemoryStaysUnderLimit decodes request-body bombs of every
// coding, 16 MiB and 128 MiB of zeros each, against a 1 MiB limit: the
// answer is 413, the handler sees exactly the limit, and the heap's peak
// growth (decoder included, taken cold from an empty pool) stays under the
// limit plus the decoder's bound for that limit, and does not grow with
// the bomb.
func TestRequestBombMemoryStaysUnderLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 0.5 GiB of bombs")
	}
	const limit = 1 << 20
	m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		var peaks []uint64
		for _, size := range []int{16 << 20, 128 << 20} {
			payload := bomb(t, coding, size)
			var read int64
			h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				read, _ = io.Copy(io.Discard, r.Body)
			}))
			req := httptest.NewRequest("POST", "/", bytes.NewReader(payload))
			req.Header.Set("Content-Encoding", coding)
			rec := httptest.NewRecorder()
			runtime.GC() // twice: empties the decoder pools, so the decoder is made cold
			s := soak.StartSampler(time.Millisecond)
			h.ServeHTTP(rec, req)
			peak := s.Stop()
			if rec.Code != http.StatusRequestEntityTooLarge || read != limit {
				t.Errorf("%s bomb of %d MiB (%d bytes sent): status %d, handler read %d; want 413 at %d", coding, size>>20, len(payload), rec.Code, read, limit)
			}
			if bound := limit + decoderBound(coding, limit); peak.HeapInuse > bound {
				t.Errorf("%s bomb of %d MiB: heap grew by %d bytes, over the limit plus window (%d)", coding, size>>20, peak.HeapInuse, bound)
			}
			t.Logf("%-7s bomb %3d MiB in %7d B: peak heap +%6.2f MiB, allocated %6.2f MiB (limit 1 MiB)",
				coding, size>>20, len(payload), mib(peak.HeapInuse), mib(peak.TotalAlloc))
			peaks = append(peaks, peak.TotalAlloc)
		}
		// 8 times the bomb must not cost more memory: the decoder stops at
		// the limit. 1 MiB of slack for the sampler's own noise.
		if peaks[1] > peaks[0]+1<<20 {
			t.Errorf("%s: a 128 MiB bomb allocated %d bytes, a 16 MiB one %d: memory follows the bomb", coding, peaks[1], peaks[0])
		}
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
