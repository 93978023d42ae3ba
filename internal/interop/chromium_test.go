package interop

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestChromiumDumpsPageFromLocalhost(t *testing.T) {
	b := Chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>start</title><p id="ae"></p>
<script>document.getElementById("ae").textContent = "ae=" + "ready";
setTimeout(() => { document.title = "done" }, 100)</script>`)
	}))
	defer srv.Close()
	dom := b.WaitDOM(t, srv.URL, "<title>done</title>")
	if !strings.Contains(dom, "ae=ready") {
		t.Fatalf("DOM lacks the script's output:\n%s", dom)
	}
}

func TestChromiumScreenshotIsPNG(t *testing.T) {
	b := Chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><body style="background:#0a0">squeeze</body>`)
	}))
	defer srv.Close()
	png, err := os.ReadFile(b.Screenshot(t, srv.URL, 320, 200))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n") {
		t.Fatalf("screenshot does not start with the PNG signature: % x", png[:min(8, len(png))])
	}
}
