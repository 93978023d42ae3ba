package dictionary

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// Headless Chromium keeps build 1 of a script as a dictionary (its response
// carries Use-As-Dictionary), then, on the next load, asks for build 2 with
// Available-Dictionary; the middleware answers dcz, the page runs build 2,
// and Resource Timing reports an encoded size far below plain zstd's.
//
// Both secure contexts are tried: plain http to 127.0.0.1, which Chromium
// counts as potentially trustworthy, and TLS with httptest's certificate
// trusted through --ignore-certificate-errors-spki-list. (With
// --ignore-certificate-errors instead, Chromium 156 loads the pages but
// keeps no dictionary: build 2 is requested without Available-Dictionary.)
func TestChromiumUsesDictionaryForNextBuild(t *testing.T) {
	for _, transport := range []string{"http", "https"} {
		t.Run(transport, func(t *testing.T) { testChromiumDictionary(t, transport, "dcz") })
	}
}

// The same with build 2 sent as dcb (RFC 9842 §4) by AppendDCB, which no
// decoder but a browser's checks: Chromium decodes it with build 1 as its
// dictionary and runs it.
func TestChromiumDecodesDCB(t *testing.T) {
	testChromiumDictionary(t, "http", "dcb")
}

func testChromiumDictionary(t *testing.T, transport, coding string) {
	browser := interop.Chromium(t)
	v1, v2 := versionedScript(1, 200<<10), versionedScript(2, 200<<10)
	store := NewStore(0)
	if _, err := store.Add(v1); err != nil {
		t.Fatal(err)
	}
	mw := newMiddleware(t, Config{Store: store})
	var mu sync.Mutex
	seen := map[string]http.Header{} // request headers per path
	sent := map[string]string{}      // Content-Encoding per path
	pages := map[string]string{
		"/v1.html": `<!doctype html><p id="out">not run</p><script src="/app/v1/app.js"></script>` +
			`<script>document.getElementById("out").textContent = "loaded " + window.appVersion;</script>`,
		"/v2.html": `<!doctype html><p id="out">not run</p><script src="/app/v2/app.js"></script>` +
			`<script>var e = performance.getEntriesByName(new URL("/app/v2/app.js", location).href)[0];` +
			`document.getElementById("out").textContent = "ran " + window.appVersion + " encoded=" + e.encodedBodySize + " decoded=" + e.decodedBodySize;</script>`,
	}
	app := func(w http.ResponseWriter, r *http.Request) {
		if p, ok := pages[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.Write([]byte(p))
			return
		}
		var body []byte
		switch r.URL.Path {
		case "/app/v1/app.js":
			body = v1
		case "/app/v2/app.js":
			body = v2
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		if hash, ok := Available(r.Header); coding == "dcb" && ok && hash == sha256.Sum256(v1) && strings.Contains(r.Header.Get("Accept-Encoding"), "dcb") {
			w.Header().Set("Content-Encoding", "dcb")
			w.Header().Set("Vary", "Accept-Encoding, Available-Dictionary")
			w.Write(AppendDCB(nil, body, New(v1)))
			return
		}
		if err := SetUseAs(w.Header(), UseAs{Match: "/app/*/app.js", MatchDest: []string{"script"}}); err != nil {
			t.Error(err)
		}
		w.Write(body)
	}
	h := mw.Handler(http.HandlerFunc(app))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		mu.Lock()
		seen[r.URL.Path] = r.Header.Clone()
		sent[r.URL.Path] = w.Header().Get("Content-Encoding")
		mu.Unlock()
	}))
	profile := browser.Profile(t)
	switch transport {
	case "http":
		srv.Start()
	case "https":
		srv.StartTLS()
		sum := sha256.Sum256(srv.Certificate().RawSubjectPublicKeyInfo)
		profile.Flags = []string{"--ignore-certificate-errors-spki-list=" + base64.StdEncoding.EncodeToString(sum[:])}
	}
	defer srv.Close()
	// Chromium stores a dictionary asynchronously after the response ends;
	// on a loaded machine the browser may exit before it has. That is the
	// browser's timing, not the server's: load both builds again, a few
	// times, before calling it a failure.
	var dom string
	for attempt := 1; ; attempt++ {
		profile.WaitDOM(t, srv.URL+"/v1.html", "loaded 1")
		dom = profile.WaitDOM(t, srv.URL+"/v2.html", "ran 2")
		mu.Lock()
		got := sent["/app/v2/app.js"]
		mu.Unlock()
		if got == coding || attempt == 3 {
			break
		}
		t.Logf("attempt %d: build 2 went out as %q; loading both builds again", attempt, got)
	}

	mu.Lock()
	defer mu.Unlock()
	req := seen["/app/v2/app.js"]
	if got := sent["/app/v2/app.js"]; got != coding {
		t.Fatalf("build 2 went out as %q, want %s; Chromium sent Accept-Encoding %q, Available-Dictionary %q", got, coding, req.Get("Accept-Encoding"), req.Get("Available-Dictionary"))
	}
	m := regexp.MustCompile(`ran 2 encoded=(\d+) decoded=(\d+)`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("page did not report its Resource Timing; DOM:\n%s", dom)
	}
	encoded, _ := strconv.Atoi(m[1])
	decoded, _ := strconv.Atoi(m[2])
	zstdLen := len(mustZstd(t, v2))
	t.Logf("build 2: %d bytes, zstd %d, %s as Chromium measured it %d", len(v2), zstdLen, coding, encoded)
	if decoded != len(v2) {
		t.Errorf("Chromium decoded %d bytes, want the %d of build 2", decoded, len(v2))
	}
	if encoded == 0 || encoded*4 > zstdLen {
		t.Errorf("%s body of %d bytes is not under a quarter of plain zstd's %d", coding, encoded, zstdLen)
	}
	if !strings.Contains(dom, "ran 2") {
		t.Fatalf("build 2 did not run; DOM:\n%s", dom)
	}
}

func mustZstd(t *testing.T, src []byte) []byte {
	t.Helper()
	out, err := encoding.Zstd().(encoding.AppendEncoder).AppendEncode(nil, src, defaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
