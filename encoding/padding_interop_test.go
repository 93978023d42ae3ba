package encoding

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// interopJitter pads up to 2000, so that gzip is padded with a comment
// alone (up to 511) and with empty blocks after it.
const interopJitter = 2000

// paddedBodies returns the bodies that padded peers decode: whole bodies
// for the own encoders (1 KB) and the libraries' one-shot paths (20 KB),
// each size twice, once padded for at most maxGzipComment and once for
// more (chosen by the keyed hash the middleware pads whole bodies by), and
// one streamed body (300 KB), padded by a random amount.
func paddedBodies() [][]byte {
	var bodies [][]byte
	for _, size := range []int{1 << 10, 20 << 10} {
		var small, large bool
		for i := 0; !small || !large; i++ {
			body := append(sampleText(size-8), fmt.Sprintf("%08d", i)...)
			n := 1 + int(maphash.Bytes(jitterSeed, body)%interopJitter)
			if n <= maxGzipComment && !small || n > maxGzipComment && !large {
				small, large = small || n <= maxGzipComment, large || n > maxGzipComment
				bodies = append(bodies, body)
			}
		}
	}
	return append(bodies, sampleText(300<<10))
}

// paddedServer serves bodies[i] at /i as text through the middleware with
// Jitter (plain without it). A coding query parameter narrows the request's
// Accept-Encoding to that coding when the client offered it, so that a
// browser, whose Accept-Encoding a page cannot set, gets each coding in
// turn. It records the Content-Encoding of each response by path and
// coding.
type paddedServer struct {
	*httptest.Server
	mu   sync.Mutex
	sent map[string]string
}

func newPaddedServer(t *testing.T, bodies [][]byte, jitter int, page string) *paddedServer {
	t.Helper()
	m := mustNew(t, Config{Jitter: jitter})
	s := &paddedServer{sent: map[string]string{}}
	app := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(page))
			return
		}
		i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		if err != nil || i < 0 || i >= len(bodies) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(bodies[i])
	}))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		coding := r.URL.Query().Get("coding")
		if coding != "" && strings.Contains(r.Header.Get("Accept-Encoding"), coding) {
			r.Header.Set("Accept-Encoding", coding)
		}
		app.ServeHTTP(w, r)
		s.mu.Lock()
		s.sent[r.URL.Path+" "+coding] = w.Header().Get("Content-Encoding")
		s.mu.Unlock()
	}))
	t.Cleanup(s.Close)
	return s
}

// TestCurlDecodesPaddedBodies: curl, through libcurl's zlib, brotli and
// zstd, decodes padded bodies of every coding, whole and streamed, to the
// bytes the handler wrote, and downloads more bytes than without padding.
func TestCurlDecodesPaddedBodies(t *testing.T) {
	curl := interop.Curl(t)
	bodies := paddedBodies()
	padded := newPaddedServer(t, bodies, interopJitter, "")
	plain := newPaddedServer(t, bodies, 0, "")
	for i, body := range bodies {
		for _, coding := range allCodings {
			var sizes [2]string
			for j, srv := range []*paddedServer{padded, plain} {
				out := filepath.Join(t.TempDir(), "body")
				sizes[j] = curl.Run(t, "-sS", "--compressed", "-H", "Accept-Encoding: "+coding,
					"-o", out, "-w", "%{size_download}", srv.URL+"/"+strconv.Itoa(i))
				got, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(body) {
					t.Fatalf("%s, body %d (%d B), jitter %t: curl decoded %d bytes that differ from the %d written", coding, i, len(body), j == 0, len(got), len(body))
				}
			}
			if sizes[0] == sizes[1] {
				t.Errorf("%s, body %d: padded and plain responses are both %s bytes", coding, i, sizes[0])
			}
		}
	}
}

// TestPythonDecodesPaddedBodies: Python's gzip, zlib, brotli and zstandard
// modules decode padded bodies of every coding. A zstd body is one frame
// after a skippable frame; like urllib3, the script decodes frame after
// frame until the input ends (RFC 8878 §3: one or more frames).
func TestPythonDecodesPaddedBodies(t *testing.T) {
	py := interop.Python(t, "brotli", "zstandard")
	bodies := paddedBodies()
	srv := newPaddedServer(t, bodies, interopJitter, "")
	const script = `
import sys, urllib.request, gzip, zlib, hashlib, brotli, zstandard
def unzstd(data):
    out = []
    while data:
        d = zstandard.ZstdDecompressor().decompressobj()
        out.append(d.decompress(data))
        if not d.eof:
            raise ValueError("truncated zstd frame")
        data = d.unused_data
    return b"".join(out)
url, coding = sys.argv[1], sys.argv[2]
req = urllib.request.Request(url, headers={"Accept-Encoding": coding})
with urllib.request.urlopen(req) as r:
    got, raw = r.headers.get("Content-Encoding"), r.read()
decode = {"gzip": gzip.decompress, "deflate": zlib.decompress, "br": brotli.decompress, "zstd": unzstd}[coding]
print(got, hashlib.sha256(decode(raw)).hexdigest())
`
	for i, body := range bodies {
		sum := sha256.Sum256(body)
		for _, coding := range allCodings {
			out := strings.TrimSpace(py.Run(t, "-c", script, srv.URL+"/"+strconv.Itoa(i), coding))
			if want := coding + " " + hex.EncodeToString(sum[:]); out != want {
				t.Errorf("python, %s, body %d (%d B): got %q, want %q", coding, i, len(body), out, want)
			}
		}
	}
}

// TestChromiumDecodesPaddedBodies: headless Chromium fetches padded bodies
// of every coding, whole and streamed, and their SHA-256, taken in the
// page, is the body's.
func TestChromiumDecodesPaddedBodies(t *testing.T) {
	browser := interop.Chromium(t)
	bodies := paddedBodies()
	var want []string
	for _, body := range bodies {
		sum := sha256.Sum256(body)
		want = append(want, hex.EncodeToString(sum[:]))
	}
	codings := `["` + strings.Join(allCodings, `","`) + `"]`
	page := `<!doctype html><pre id="out">running</pre><script>
const want = ["` + strings.Join(want, `","`) + `"];
(async () => {
  const lines = [];
  for (const coding of ` + codings + `) {
    for (let i = 0; i < want.length; i++) {
      try {
        const r = await fetch("/" + i + "?coding=" + coding, {cache: "no-store"});
        const sum = await crypto.subtle.digest("SHA-256", await r.arrayBuffer());
        const hex = [...new Uint8Array(sum)].map(b => b.toString(16).padStart(2, "0")).join("");
        lines.push((hex === want[i] ? "ok " : "BAD ") + coding + " " + i);
      } catch (e) {
        lines.push("BAD " + coding + " " + i + " " + e);
      }
    }
  }
  document.getElementById("out").textContent = lines.join("\n") + "\ndone";
})();
</script>`
	srv := newPaddedServer(t, bodies, interopJitter, page)
	dom := browser.Profile(t).WaitDOM(t, srv.URL+"/page.html", "done")
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, coding := range allCodings {
		for i := range bodies {
			if !strings.Contains(dom, "ok "+coding+" "+strconv.Itoa(i)+"\n") {
				t.Errorf("Chromium, %s, body %d (%d B): not decoded to the body", coding, i, len(bodies[i]))
			}
			if got := srv.sent["/"+strconv.Itoa(i)+" "+coding]; got != coding {
				t.Errorf("Chromium, body %d: asked for %s, sent Content-Encoding %q", i, coding, got)
			}
		}
	}
	if t.Failed() {
		t.Logf("page:\n%s", dom)
	}
}
