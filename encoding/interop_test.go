package encoding

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// peerServer serves body as JSON through the default middleware, with an
// ETag and ranges from http.ServeContent, on 127.0.0.1.
func peerServer(t *testing.T, body []byte) *httptest.Server {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"peer-1"`)
		http.ServeContent(w, r, "", time.Unix(1e9, 0), strings.NewReader(string(body)))
	})
	srv := httptest.NewServer(Handler(h))
	t.Cleanup(srv.Close)
	return srv
}

// curl decodes every coding we send (its --compressed covers gzip, deflate,
// br and zstd) to the bytes the handler wrote.
func TestCurlDecodesEveryCoding(t *testing.T) {
	curl := interop.Curl(t)
	for _, size := range []int{4 << 10, 300 << 10} {
		body := sampleText(size)
		srv := peerServer(t, body)
		for _, coding := range allCodings {
			out := filepath.Join(t.TempDir(), "body")
			headers := curl.Run(t, "-sS", "--compressed", "-H", "Accept-Encoding: "+coding, "-D", "-", "-o", out, srv.URL)
			if !strings.Contains(strings.ToLower(headers), "content-encoding: "+coding+"\r\n") {
				t.Fatalf("%s, %d B: curl saw headers\n%s", coding, size, headers)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(body) {
				t.Fatalf("%s, %d B: curl decoded %d bytes that differ from the %d written", coding, size, len(got), len(body))
			}
		}
	}
}

// curl's view of the HTTP rules: HEAD, Range and If-None-Match.
func TestCurlSeesRangeHeadAndConditionals(t *testing.T) {
	curl := interop.Curl(t)
	srv := peerServer(t, sampleText(8192))
	head := strings.ToLower(curl.Run(t, "-sS", "-I", "-H", "Accept-Encoding: br", srv.URL))
	for _, want := range []string{"http/1.1 200", "content-encoding: br", "vary: accept-encoding", `etag: "peer-1-br"`} {
		if !strings.Contains(head, want) {
			t.Errorf("HEAD: no %q in\n%s", want, head)
		}
	}
	ranged := strings.ToLower(curl.Run(t, "-sS", "-D", "-", "-o", os.DevNull, "-H", "Accept-Encoding: br", "-r", "0-99", srv.URL))
	if !strings.Contains(ranged, "http/1.1 206") || strings.Contains(ranged, "content-encoding") || !strings.Contains(ranged, "content-length: 100") {
		t.Errorf("Range: want a 206 of 100 identity bytes, got\n%s", ranged)
	}
	cond := strings.ToLower(curl.Run(t, "-sS", "-D", "-", "-o", os.DevNull, "-H", "Accept-Encoding: br", "-H", `If-None-Match: "peer-1-br"`, srv.URL))
	if !strings.Contains(cond, "http/1.1 304") || !strings.Contains(cond, `etag: "peer-1-br"`) {
		t.Errorf("If-None-Match: want a 304 naming the br ETag, got\n%s", cond)
	}
}

// Python's zlib, gzip, brotli and zstandard modules decode each coding:
// decoders that share no code with ours. The 1 KB bodies take the one-shot
// paths (squeeze's own DEFLATE, brotli and zstd encoders for gzip, deflate,
// br and zstd; the English prose brings the brotli encoder's static-dictionary
// references, RFC 7932 §8), the 100 KB one klauspost's and andybalholm's
// encoders.
func TestPythonDecodesEveryCoding(t *testing.T) {
	py := interop.Python(t, "brotli", "zstandard")
	for _, body := range [][]byte{sampleText(1 << 10), []byte(prose), sampleText(100 << 10)} {
		pythonDecodes(t, py, body)
	}
}

// prose is about 1 KB of English with few repeated words, the kind of text
// brotli's static dictionary was built from.
const prose = `Compression trades a little work on the server for fewer bytes on ` +
	`the network. A browser announces which codings it understands, and the ` +
	`server picks the best one both sides support, then marks the response ` +
	`so that caches keep separate copies for clients that asked differently. ` +
	`Small replies are common: an application programming interface often ` +
	`returns only a few hundred characters, where the fixed cost of starting ` +
	`an encoder can exceed the time spent on the actual content. Brotli ships ` +
	`with a built-in dictionary of frequent words and phrases taken from ` +
	`documents in many languages, which lets even a short message refer to ` +
	`text it never contained. Developers should measure before choosing ` +
	`levels, because the highest settings rarely pay for themselves when ` +
	`every request must be answered quickly. Security matters too: secrets ` +
	`reflected next to attacker-controlled input can leak through the length ` +
	`of the compressed output, so sensitive pages deserve careful review, ` +
	`random padding, or no compression at all. Finally, remember that images, ` +
	`video and archives are already compressed and gain nothing further.`

func pythonDecodes(t *testing.T, py *interop.Peer, body []byte) {
	sum := sha256.Sum256(body)
	srv := peerServer(t, body)
	const script = `
import sys, urllib.request, gzip, zlib, hashlib, brotli, zstandard
url, coding = sys.argv[1], sys.argv[2]
req = urllib.request.Request(url, headers={"Accept-Encoding": coding})
with urllib.request.urlopen(req) as r:
    got, raw = r.headers.get("Content-Encoding"), r.read()
decode = {"gzip": gzip.decompress, "deflate": zlib.decompress, "br": brotli.decompress,
          "zstd": lambda b: zstandard.ZstdDecompressor().decompressobj().decompress(b)}[coding]
print(got, hashlib.sha256(decode(raw)).hexdigest())
`
	for _, coding := range allCodings {
		out := strings.TrimSpace(py.Run(t, "-c", script, srv.URL, coding))
		if want := coding + " " + hex.EncodeToString(sum[:]); out != want {
			t.Errorf("python, %s, %d B: got %q, want %q", coding, len(body), out, want)
		}
	}
}

// Go's own client asks for gzip and decodes it transparently.
func TestGoClientGetsGzipTransparently(t *testing.T) {
	body := sampleText(8192)
	srv := peerServer(t, body)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil || !resp.Uncompressed || string(got) != string(body) {
		t.Fatalf("Go client: uncompressed=%v, %d bytes, equal=%v, err %v", resp.Uncompressed, len(got), string(got) == string(body), err)
	}
}

// curl revalidates with the ETag it saved (--etag-save, --etag-compare),
// against a handler comparing If-None-Match by == and one that never looks
// at it: both answer 304 behind the middleware.
func TestCurlRevalidatesWithItsSavedETag(t *testing.T) {
	curl := interop.Curl(t)
	var seen string
	for name, h := range map[string]http.HandlerFunc{
		"equality":  equalityHandler(&seen),
		"ETag only": taggedHandler(`"v1"`, 8192),
	} {
		srv := httptest.NewServer(Handler(h))
		etags := filepath.Join(t.TempDir(), "etag")
		first := strings.ToLower(curl.Run(t, "-sS", "--compressed", "-H", "Accept-Encoding: br", "--etag-save", etags, "-D", "-", "-o", os.DevNull, srv.URL))
		again := strings.ToLower(curl.Run(t, "-sS", "--compressed", "-H", "Accept-Encoding: br", "--etag-compare", etags, "-D", "-", "-o", os.DevNull, srv.URL))
		srv.Close()
		if !strings.Contains(first, `etag: "v1-br"`) || !strings.Contains(again, "http/1.1 304") || !strings.Contains(again, `etag: "v1-br"`) {
			t.Errorf("%s: curl got\n%s\nthen\n%s", name, first, again)
		}
	}
}

// curl reads declared trailers after the chunked body, not among the
// header fields, from a body compressed whole and from one passed through.
func TestCurlReadsTrailers(t *testing.T) {
	curl := interop.Curl(t)
	srv := httptest.NewServer(Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum")
		w.Header().Set("Content-Type", "text/plain")
		w.Write(sampleText(4096))
		w.Header().Set("X-Sum", "abc")
	})))
	defer srv.Close()
	for _, coding := range []string{"gzip", "identity"} {
		out := strings.ToLower(curl.Run(t, "-sS", "--compressed", "-H", "Accept-Encoding: "+coding, "-D", "-", "-o", os.DevNull, srv.URL))
		header, trailer, _ := strings.Cut(out, "\r\n\r\n")
		if strings.Contains(header, "\r\nx-sum:") || !strings.Contains(header, "transfer-encoding: chunked") || !strings.Contains(trailer, "x-sum: abc") {
			t.Errorf("%s: curl got\n%s", coding, out)
		}
	}
}
