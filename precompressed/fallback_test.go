package precompressed

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

func TestFallbackCompressesOnceAndServesFromMemory(t *testing.T) {
	c := &countingFS{FS: fstest.MapFS{"data.json": file([]byte(strings.Repeat(`{"key":"value","n":12345},`, 200)))}}
	// No background recompression: its read of the file would show in the
	// count of calls a response makes.
	h := FileServer(c, Config{CheckInterval: time.Hour, FallbackRecompressAfter: -1})
	for _, coding := range []string{"zstd", "br", "gzip"} {
		first := do(h, "GET", "/data.json", "Accept-Encoding", coding)
		if first.Header().Get("Content-Encoding") != coding {
			t.Fatalf("%s: Content-Encoding %q", coding, first.Header().Get("Content-Encoding"))
		}
		if got := decode(t, coding, first.Body.Bytes()); !bytes.Equal(got, c.FS.(fstest.MapFS)["data.json"].Data) {
			t.Fatalf("%s: decoded body differs from the file", coding)
		}
		if first.Header().Get("Content-Length") != strconv.Itoa(first.Body.Len()) || first.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Content-Length %q for %d bytes, Vary %q", coding, first.Header().Get("Content-Length"), first.Body.Len(), first.Header().Get("Vary"))
		}
		c.reset()
		again := do(h, "GET", "/data.json", "Accept-Encoding", coding)
		if !bytes.Equal(again.Body.Bytes(), first.Body.Bytes()) || again.Header().Get("ETag") != first.Header().Get("ETag") {
			t.Errorf("%s: second response differs from the first", coding)
		}
		if got := c.reset(); got != 0 {
			t.Errorf("%s: serving from memory made %d open/stat calls, want 0", coding, got)
		}
	}
	if w := do(h, "GET", "/data.json"); w.Header().Get("Vary") != "Accept-Encoding" || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("identity: Vary %q, Content-Encoding %q; want Vary and no coding", w.Header().Get("Vary"), w.Header().Get("Content-Encoding"))
	}
}

func TestFallbackRangeAndConditionalsOnCompressedBytes(t *testing.T) {
	h := FileServer(fstest.MapFS{"app.js": file(jsBody)}, Config{})
	full := do(h, "GET", "/app.js", "Accept-Encoding", "gzip")
	tag := full.Header().Get("ETag")
	if !strings.HasSuffix(tag, `-gzip"`) {
		t.Fatalf("ETag %q not tagged with gzip", tag)
	}
	part := do(h, "GET", "/app.js", "Accept-Encoding", "gzip", "Range", "bytes=2-11", "If-Range", tag)
	if part.Code != 206 || part.Body.String() != full.Body.String()[2:12] {
		t.Errorf("Range: status %d, body %q; want 206 and bytes 2-11 of the gzip body", part.Code, part.Body.Bytes())
	}
	if w := do(h, "GET", "/app.js", "Accept-Encoding", "gzip", "If-None-Match", tag); w.Code != 304 {
		t.Errorf("If-None-Match: status %d, want 304", w.Code)
	}
	if w := do(h, "HEAD", "/app.js", "Accept-Encoding", "gzip"); w.Header().Get("Content-Length") != strconv.Itoa(full.Body.Len()) {
		t.Errorf("HEAD: Content-Length %q, want %d", w.Header().Get("Content-Length"), full.Body.Len())
	}
}

func TestFallbackOnlyForCompressibleFilesWorthIt(t *testing.T) {
	fsys := fstest.MapFS{
		"photo.png": file(bytes.Repeat([]byte("x"), 4096)),
		"tiny.js":   file([]byte("let a = 1;")),
		"random.js": file(pseudoRandom(4096)),
		"app.js":    file(jsBody),
	}
	h := FileServer(fsys, Config{})
	tests := []struct {
		path, encoding, vary string
	}{
		{"/photo.png", "", ""},                // not a compressible type
		{"/tiny.js", "", ""},                  // under FallbackMinSize
		{"/random.js", "", "Accept-Encoding"}, // negotiable, but gzip does not shrink it
		{"/app.js", "gzip", "Accept-Encoding"},
	}
	for _, tt := range tests {
		w := do(h, "GET", tt.path, "Accept-Encoding", "gzip")
		if w.Header().Get("Content-Encoding") != tt.encoding || w.Header().Get("Vary") != tt.vary {
			t.Errorf("%s: Content-Encoding %q, Vary %q; want %q, %q", tt.path, w.Header().Get("Content-Encoding"), w.Header().Get("Vary"), tt.encoding, tt.vary)
		}
	}
	off := FileServer(fsys, Config{FallbackCacheBytes: -1})
	if w := do(off, "GET", "/app.js", "Accept-Encoding", "gzip"); w.Header().Get("Content-Encoding") != "" || w.Header().Get("Vary") != "" {
		t.Errorf("fallback off: Content-Encoding %q, Vary %q; want neither", w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	}
}

// Zero means DefaultMinSize, as for every size knob; EverySize compresses
// a small file on the fly too.
func TestFallbackMinSizeZeroIsTheDefaultAndEverySizeIsEvery(t *testing.T) {
	fsys := fstest.MapFS{"small.js": file(bytes.Repeat([]byte("let a = 1;\n"), 20))} // 220 bytes
	for _, tc := range []struct {
		minSize int64
		want    string
	}{{0, ""}, {EverySize, "gzip"}, {200, "gzip"}, {221, ""}} {
		w := do(FileServer(fsys, Config{FallbackMinSize: tc.minSize}), "GET", "/small.js", "Accept-Encoding", "gzip")
		if got := w.Header().Get("Content-Encoding"); got != tc.want {
			t.Errorf("FallbackMinSize %d, 220-byte file: Content-Encoding %q, want %q", tc.minSize, got, tc.want)
		}
	}
}

func TestFallbackCacheStaysWithinBudget(t *testing.T) {
	const budget = 12 << 10 // files up to 3 KiB qualify; 50 entries of about 320 B do not all fit
	fsys := fstest.MapFS{}
	for i := range 50 {
		fsys["f"+strconv.Itoa(i)+".txt"] = file([]byte(strings.Repeat("line "+strconv.Itoa(i)+" of some text\n", 100)))
	}
	h := FileServer(fsys, Config{FallbackCacheBytes: budget, Fallback: []encoding.Codec{encoding.Gzip()}}).(*server)
	for name := range fsys {
		if w := do(h, "GET", "/"+name, "Accept-Encoding", "gzip"); w.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: not compressed", name)
		}
		if used := h.cache.Used(); used > budget {
			t.Fatalf("cache holds %d bytes, budget %d", used, budget)
		}
	}
	if n := h.cache.Len(); n == len(fsys) {
		t.Errorf("all %d entries still cached: the budget evicted nothing, so the test proves nothing", n)
	}
}

// pseudoRandom returns n bytes no coding can shrink, the same every run.
func pseudoRandom(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func TestFallbackRecompressReplacesWithSmallerBody(t *testing.T) {
	var sb strings.Builder
	for i := range 400 {
		sb.WriteString("item " + strconv.Itoa(i*7919%1000) + " costs " + strconv.Itoa(i*31) + " coins\n")
	}
	src := []byte(sb.String())
	h := FileServer(fstest.MapFS{"list.txt": file(src)}, Config{Fallback: []encoding.Codec{encoding.Brotli()}})
	first := do(h, "GET", "/list.txt", "Accept-Encoding", "br")
	deadline := time.Now().Add(20 * time.Second)
	for {
		w := do(h, "GET", "/list.txt", "Accept-Encoding", "br")
		if w.Header().Get("ETag") != first.Header().Get("ETag") {
			if w.Body.Len() >= first.Body.Len() {
				t.Errorf("recompressed body %d bytes, not smaller than the first %d", w.Body.Len(), first.Body.Len())
			}
			if !bytes.Equal(decode(t, "br", w.Body.Bytes()), src) {
				t.Errorf("recompressed body does not decode to the file")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("body still the first one (%d bytes, ETag %s) after 20 s", first.Body.Len(), first.Header().Get("ETag"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
