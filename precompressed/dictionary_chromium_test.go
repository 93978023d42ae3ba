package precompressed

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// Headless Chromium keeps build 1 of a module, marked by VersionedMatch,
// as a dictionary; on the next load it asks for build 2 with
// Available-Dictionary and gets the delta sidecar GenerateDelta wrote, as
// dcz, runs it, and reports its small encoded size.
func TestChromiumGetsDeltaSidecar(t *testing.T) {
	browser := interop.Chromium(t)
	dir, _, v2 := deltaSite(t)
	pages := map[string]string{
		"v1.html": `<!doctype html><p id="out">not run</p><script type="module">` +
			`import {version} from "/app.1.js"; document.getElementById("out").textContent = "loaded " + version;</script>`,
		"v2.html": `<!doctype html><p id="out">not run</p><script type="module">` +
			`import {version} from "/app.2.js";` +
			`const e = performance.getEntriesByName(new URL("/app.2.js", location).href)[0];` +
			`document.getElementById("out").textContent = "ran " + version + " encoded=" + e.encodedBodySize + " decoded=" + e.decodedBodySize;</script>`,
	}
	for name, page := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fileServer := FileServer(os.DirFS(dir), Config{Dictionary: &DictionaryConfig{Match: VersionedMatch("/", nil), MatchDest: []string{"script"}}})
	url, sent := recordCodings(t, fileServer)

	profile := browser.Profile(t)
	var dom string
	for attempt := 1; ; attempt++ { // see TestChromiumUsesDictionaryForNextBuild in encoding
		profile.WaitDOM(t, url+"/v1.html", "loaded 1")
		dom = profile.WaitDOM(t, url+"/v2.html", "ran 2")
		got := sent("/app.2.js")
		if got == "dcz" || attempt == 3 {
			break
		}
		t.Logf("attempt %d: build 2 went out as %q; loading both builds again", attempt, got)
	}
	if got := sent("/app.2.js"); got != "dcz" {
		t.Fatalf("build 2 went out as %q, want the dcz delta sidecar", got)
	}
	m := regexp.MustCompile(`ran 2 encoded=(\d+) decoded=(\d+)`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("page did not report its Resource Timing; DOM:\n%s", dom)
	}
	encoded, _ := strconv.Atoi(m[1])
	decoded, _ := strconv.Atoi(m[2])
	zstdLen := len(compress(t, "zstd", v2))
	t.Logf("build 2: %d bytes, zstd %d, dcz delta as Chromium measured it %d", len(v2), zstdLen, encoded)
	if decoded != len(v2) || encoded == 0 || encoded*4 > zstdLen {
		t.Fatalf("Chromium decoded %d bytes (want %d) from %d encoded (want under a quarter of zstd's %d)", decoded, len(v2), encoded, zstdLen)
	}
}
