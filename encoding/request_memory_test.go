package encoding

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// decoderBound is the most a request body's decoder may allocate per
// request with limit, as Config.MaxRequestSize documents it.
func decoderBound(coding string, limit int64) uint64 {
	switch coding {
	case "zstd":
		return 2*zstdRequestWindow(limit) + 384<<10
	case "br":
		ring := uint64(256 << 10)
		for ring < uint64(limit)+17 && ring < 16<<20 {
			ring *= 2
		}
		return 2*ring + 3<<20
	}
	return 128 << 10
}

// zerosIn returns n zero bytes, a multiple of 1 MiB, encoded in coding:
// zstd with a window of window bytes, br with window bits lgwin, gzip and
// deflate at their best compression.
func zerosIn(t testing.TB, coding string, n, window, lgwin int) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	var err error
	switch coding {
	case "gzip":
		w, err = gzip.NewWriterLevel(&b, gzip.BestCompression)
	case "deflate":
		w, err = zlib.NewWriterLevel(&b, flate.BestCompression)
	case "br":
		w = brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: 5, LGWin: lgwin})
	case "zstd":
		w, err = zstd.NewWriter(&b, zstd.WithWindowSize(window), zstd.WithEncoderLevel(zstd.SpeedFastest))
	}
	if err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	for range n >> 20 {
		w.Write(zeros)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// allocatedPerRequest serves payload in coding k times through m, each time
// with the decoder pools emptied first (the worst case: every decoder made
// anew), and returns the bytes allocated per request, as TotalAlloc counts
// them, and the last response and what its handler read.
func allocatedPerRequest(m *Middleware, coding string, payload []byte) (alloc uint64, rec *httptest.ResponseRecorder, read int64) {
	h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		read, _ = io.Copy(io.Discard, r.Body)
	}))
	const k = 4
	var total uint64
	for range k {
		req := httptest.NewRequest("POST", "/", bytes.NewReader(payload))
		req.Header.Set("Content-Encoding", coding)
		rec = httptest.NewRecorder()
		runtime.GC() // twice: a pooled object survives one
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		h.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		total += after.TotalAlloc - before.TotalAlloc
	}
	return total / k, rec, read
}

// TestRequestDecoderMemoryFollowsTheLimit sends, against limits of 64 KiB,
// 1 MiB and 4 MiB, bombs of 40 MiB of zeros that ask for the largest
// window each coding allows (zstd: 8 MiB, RFC 9659; br: 16 MiB), and
// checks that each request allocates no more than the bound
// Config.MaxRequestSize states as a formula of the limit, that the handler
// reads exactly the limit and that the answer is 413.
func TestRequestDecoderMemoryFollowsTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bombs of 40 MiB")
	}
	bombs := map[string][]byte{}
	for _, coding := range allCodings {
		bombs[coding] = bomb(t, coding, 40<<20)
	}
	for _, limit := range []int64{64 << 10, 1 << 20, 4 << 20} {
		m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
		for _, coding := range allCodings {
			payload := bombs[coding]
			alloc, rec, read := allocatedPerRequest(m, coding, payload)
			t.Logf("limit %4d KiB, %-7s: %7d bytes allocated per request, bound %7d", limit>>10, coding, alloc, decoderBound(coding, limit))
			if rec.Code != http.StatusRequestEntityTooLarge || read != limit {
				t.Errorf("limit %d, %s bomb: status %d, handler read %d; want 413 after exactly the limit", limit, coding, rec.Code, read)
			}
			// 64 KiB for the request, the recorder and the middleware.
			if bound := decoderBound(coding, limit) + 64<<10; alloc > bound {
				t.Errorf("limit %d, %s bomb: %d bytes allocated per request, over the documented bound %d", limit, coding, alloc, bound)
			}
		}
	}
}

// TestZstdWindowIsCutToTheLimit_RFC8878_3_1_1_1_2: a frame whose
// Window_Descriptor asks for 8 MiB (what RFC 9659 allows, and what
// klauspost's streaming encoder states) is decoded under a 1 MiB limit
// with the window cut to what the limit needs, which changes nothing in a
// body within the limit, even with back-references across almost the
// whole body; one byte more is 413 after exactly the limit, within the
// documented memory. A single-segment frame, whose window is its content
// size, above the limit is 413 before the handler gets a byte and before
// the window is allocated.
func TestZstdWindowIsCutToTheLimit_RFC8878_3_1_1_1_2(t *testing.T) {
	const limit = 1 << 20
	m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
	// Random bytes, then the same again: matches 512 KiB back.
	half := make([]byte, limit/2)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range half {
		half[i] = byte(rng.Uint32())
	}
	body := append(bytes.Clone(half), half...)
	for _, window := range []int{8 << 20, 2 << 20, 1 << 20, 64 << 10} {
		for _, extra := range []int{0, 1} {
			var b bytes.Buffer
			z, _ := zstd.NewWriter(&b, zstd.WithWindowSize(window), zstd.WithEncoderCRC(true))
			z.Write(body[:len(body)-1])
			z.Write(append([]byte{body[len(body)-1]}, make([]byte, extra)...))
			z.Close()
			if window >= limit && b.Len() > limit/2+limit/4 {
				t.Fatalf("window %d: %d bytes; the repeat was not found, so the test proves nothing", window, b.Len())
			}
			alloc, rec, read := allocatedPerRequest(m, "zstd", b.Bytes())
			if bound := decoderBound("zstd", limit) + 64<<10; alloc > bound {
				t.Errorf("window %d, %d bytes: %d bytes allocated per request, over the documented bound %d", window, limit+extra, alloc, bound)
			}
			if extra == 1 {
				if rec.Code != http.StatusRequestEntityTooLarge || read != limit {
					t.Errorf("window %d, one byte past the limit: status %d, handler read %d; want 413 after exactly the limit", window, rec.Code, read)
				}
				continue
			}
			if rec := postEncoded(t, m, echo, "zstd", b.Bytes()); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) {
				t.Errorf("window %d, body of the limit: %s", window, describe(rec))
			}
		}
	}
	single, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	alloc, rec, read := allocatedPerRequest(m, "zstd", single.EncodeAll(make([]byte, 2<<20), nil))
	if rec.Code != http.StatusRequestEntityTooLarge || read != 0 {
		t.Errorf("2 MiB single segment: status %d, handler read %d; want 413 before any byte", rec.Code, read)
	}
	if alloc > 256<<10 {
		t.Errorf("2 MiB single segment: %d bytes allocated per request; the window must not be", alloc)
	}
}

// TestBrotliWindowIsCutToTheLimit_RFC7932_9_1: the window in a br stream
// header is cut to what the limit needs, which changes nothing in what a
// body within the limit decodes to, even with back-references across
// almost the whole body (RFC 7932 §4: they reach min(window, bytes so far)
// back); Python's brotli, which always states a 4 MiB window (WBITS 22),
// is decoded under a 1 MiB limit; and every form of WBITS decodes.
func TestBrotliWindowIsCutToTheLimit_RFC7932_9_1(t *testing.T) {
	t.Parallel()
	const limit = 600 << 10
	m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
	// Random bytes, then the same again: matches 300 KiB back.
	half := make([]byte, limit/2)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range half {
		half[i] = byte(rng.Uint32())
	}
	body := append(bytes.Clone(half), half...)
	for lgwin := 10; lgwin <= 24; lgwin++ {
		var b bytes.Buffer
		w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: 5, LGWin: lgwin})
		w.Write(body)
		w.Close()
		if rec := postEncoded(t, m, echo, "br", b.Bytes()); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) {
			t.Errorf("WBITS %d, body of the limit: %s", lgwin, describe(rec))
		}
		if lgwin >= 20 && b.Len() > limit/2+limit/4 {
			t.Errorf("WBITS %d: %d bytes; the repeat was not found, so the test proves nothing", lgwin, b.Len())
		}
	}
	// One byte more is 413.
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: 5, LGWin: 24})
	w.Write(append(body, 'x'))
	w.Close()
	if rec := postEncoded(t, m, echo, "br", b.Bytes()); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("one byte past the limit: %s", describe(rec))
	}
}

// TestMaxRequestSizeNearMaxInt64 decodes a body of every coding with limits
// at and just under math.MaxInt64, where adding the byte that detects the
// overflow must not overflow itself.
func TestMaxRequestSizeNearMaxInt64(t *testing.T) {
	body := sampleText(20 << 10)
	for _, limit := range []int64{math.MaxInt64, math.MaxInt64 - 1} {
		m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
		for _, coding := range allCodings {
			if rec := postEncoded(t, m, echo, coding, encodeRequest(t, coding, body)); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) {
				t.Errorf("limit %d, %s: %s", limit, coding, describe(rec))
			}
		}
	}
}

// The window helpers, exactly: zstd's from the frame header's arithmetic,
// the br head's rewrite of each WBITS form.
func TestRequestWindowHelpers(t *testing.T) {
	for limit, want := range map[int64]uint64{0: 1 << 10, 1000: 1 << 10, 1025: 1024 + 128, 1 << 20: 1 << 20, 1<<20 + 1: 1<<20 + 1<<17, 9 << 20: 8 << 20, math.MaxInt64: 8 << 20} {
		if got := zstdWindowFor(limit); got != want {
			t.Errorf("zstdWindowFor(%d) = %d, want %d", limit, got, want)
		}
	}
	for _, tc := range []struct{ in, lgwin, want byte }{
		{0b1011, 18, 0b0011},           // WBITS 22 cut to 18
		{0b1111_1011, 20, 0b1111_0111}, // the meta-block's bits after WBITS stay
		{0b0011, 20, 0b0011},           // 18 is under 20: left alone
		{0b0000_0000, 18, 0b0000_0000}, // WBITS 16, one bit
		{0b0000_0001, 18, 0b0000_0001}, // 7-bit WBITS 17
		{0b0110_0001, 18, 0b0110_0001}, // 7-bit WBITS 14
	} {
		h := brotliHead{r: bytes.NewReader([]byte{tc.in, 0xff}), lgwin: int(tc.lgwin)}
		got, _ := io.ReadAll(&h)
		if got[0] != tc.want || got[1] != 0xff {
			t.Errorf("first byte %08b, cut to %d: % 08b, want %08b ff", tc.in, tc.lgwin, got, tc.want)
		}
	}
}

// TestPythonRequestBodiesUnderSmallLimit posts bodies encoded by Python's
// brotli and zstandard, encoders that share no code with our decoders, to a
// server limited to 1 MiB: brotli's default stream header states a 4 MiB
// window (WBITS 22) whatever the body, and is decoded with the window cut;
// zstandard's one-shot frame states its content size, and is decoded; its
// streaming frame states a 2 MiB window (level 3), more than 1 MiB needs,
// and is decoded with the window cut.
func TestPythonRequestBodiesUnderSmallLimit(t *testing.T) {
	py := interop.Python(t, "brotli", "zstandard")
	m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: 1 << 20})
	srv := httptest.NewServer(m.Handler(http.HandlerFunc(echo)))
	defer srv.Close()
	const script = `
import sys, urllib.request, urllib.error, hashlib, brotli, zstandard
url, how = sys.argv[1], sys.argv[2]
body = (b"squeeze request body %d\n" * 20000) % tuple(range(20000))
if how == "br":
    coding, data = "br", brotli.compress(body)
elif how == "zstd":
    coding, data = "zstd", zstandard.ZstdCompressor().compress(body)
else:
    c = zstandard.ZstdCompressor().compressobj()
    coding, data = "zstd", c.compress(body) + c.flush()
req = urllib.request.Request(url, data=data, headers={"Content-Encoding": coding}, method="POST")
try:
    with urllib.request.urlopen(req) as r:
        print(r.status, hashlib.sha256(r.read()).hexdigest() == hashlib.sha256(body).hexdigest(), len(body))
except urllib.error.HTTPError as e:
    print(e.code)
`
	for how, want := range map[string]string{"br": "200 True", "zstd": "200 True", "zstd-stream": "200 True"} {
		out := strings.TrimSpace(py.Run(t, "-c", script, srv.URL, how))
		if !strings.HasPrefix(out, want) {
			t.Errorf("python %s: got %q, want %q", how, out, want)
		}
	}
}
