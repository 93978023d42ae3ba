package precompressed

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// Headless Chromium loads a page whose script and stylesheet exist only as
// sidecars: the page runs and is styled only if the browser decoded what it
// was sent, and the server records that it sent br or zstd.
func TestChromiumRunsPageFromSidecars(t *testing.T) {
	browser := interop.Chromium(t)
	css := []byte(":root { --marker: styled; }\n" + strings.Repeat("body { margin: 0; padding: 0; }\n", 50))
	js := []byte(`document.getElementById("out").textContent = "ran " + getComputedStyle(document.documentElement).getPropertyValue("--marker").trim();` +
		"\n" + strings.Repeat("// padding so that compression pays\n", 50))
	site := fstest.MapFS{
		"index.html": file([]byte(`<!doctype html><html><head><link rel="stylesheet" href="site.css"></head>` +
			`<body><p id="out">not run</p><script src="app.js"></script></body></html>`)),
	}
	for _, coding := range []string{"br", "zstd"} {
		ext := map[string]string{"br": ".br", "zstd": ".zst"}[coding]
		site["app.js"+ext] = file(compress(t, coding, js))
		site["site.css"+ext] = file(compress(t, coding, css))
	}
	var mu sync.Mutex
	sent := map[string]string{}
	fileServer := FileServer(site, Config{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fileServer.ServeHTTP(w, r)
		mu.Lock()
		sent[r.URL.Path] = w.Header().Get("Content-Encoding")
		mu.Unlock()
	}))
	defer srv.Close()

	dom := browser.WaitDOM(t, srv.URL+"/", "ran styled")
	if !strings.Contains(dom, "ran styled") {
		t.Fatalf("page did not run with its stylesheet; DOM:\n%s", dom)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range []string{"/app.js", "/site.css"} {
		if c := sent[p]; c != "br" && c != "zstd" {
			t.Errorf("%s went out with Content-Encoding %q, want br or zstd from a sidecar", p, c)
		}
	}
}
