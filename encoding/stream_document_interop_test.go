package encoding

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/corpus"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// documentInPieces serves, at /doc/<coding>, an event, then a 512 KiB
// document in flushed pieces of 64 KiB (the stream moves to the library's
// encoder: for zstd a new frame), an idle pause past the release (back to
// the own encoder: another frame), and three events; it returns the server
// and the body every client must decode.
func documentInPieces(t *testing.T) (*httptest.Server, []byte) {
	doc := sampleText(512 << 10)
	pieces := slices.Concat([][]byte{corpus.Events(1)[0]}, chunks(doc, 64<<10))
	tail := corpus.Events(3)
	mux := http.NewServeMux()
	for _, coding := range allCodings {
		var codings []Coding
		for _, c := range DefaultCodings() {
			if c.Codec.Name() == coding {
				codings = append(codings, c)
			}
		}
		mw := mustNew(t, Config{Codings: codings, IdleRelease: 5 * time.Millisecond})
		mux.Handle("/doc/"+coding, mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			for _, p := range pieces {
				w.Write(p)
				w.(http.Flusher).Flush()
			}
			time.Sleep(50 * time.Millisecond)
			for _, e := range tail {
				w.Write(e)
				w.(http.Flusher).Flush()
			}
		})))
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, documentPage, `["`+strings.Join(allCodings, `","`)+`"]`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, slices.Concat(slices.Concat(pieces...), bytes.Join(tail, nil))
}

// documentPage fetches each coding's document and writes its length and
// FNV-1a hash (of its UTF-16 code units, which are its bytes: the text is
// ASCII) into the page.
const documentPage = `<!doctype html><title>loading</title><pre id="out"></pre><script>
(async () => {
  for (const coding of %s) {
    const r = await fetch("/doc/" + coding);
    const text = await r.text();
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
    document.getElementById("out").textContent += "doc " + coding + " " + r.headers.get("content-encoding") + " " + text.length + " " + h + "\n";
  }
  document.title = "done";
})();
</script>`

// A stream that moved to the library's encoder and back decodes in curl
// (libcurl's zstd, brotli and zlib decoders) to the bytes written: for
// zstd a body of three frames (RFC 8878 §3), for gzip and deflate one
// member whose DEFLATE data three encoders wrote in turn.
func TestDocumentInPiecesDecodesInCurl(t *testing.T) {
	curl := interop.Curl(t)
	srv, want := documentInPieces(t)
	for _, coding := range allCodings {
		out := filepath.Join(t.TempDir(), "body")
		headers := strings.ToLower(curl.Run(t, "-sS", "--compressed", "--max-time", "60",
			"-H", "Accept-Encoding: "+coding, "-D", "-", "-o", out, srv.URL+"/doc/"+coding))
		if !strings.Contains(headers, "content-encoding: "+coding+"\r\n") {
			t.Errorf("%s: curl saw headers\n%s", coding, headers)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: curl decoded %d bytes that differ from the %d written", coding, len(got), len(want))
		}
	}
}

// The same bodies decode in Chromium's fetch to the text written.
func TestDocumentInPiecesDecodesInChromium(t *testing.T) {
	browser := interop.Chromium(t)
	srv, want := documentInPieces(t)
	h := fnv.New32a()
	h.Write(want)
	dom := browser.WaitDOM(t, srv.URL+"/", "<title>done</title>")
	for _, coding := range allCodings {
		line := fmt.Sprintf("doc %s %s %d %d", coding, coding, len(want), h.Sum32())
		if !strings.Contains(dom, line) {
			t.Errorf("Chromium, %s: no %q in the page:\n%s", coding, line, dom)
		}
	}
}
