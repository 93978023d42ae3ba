package precompressed

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/internal/corpus"
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
	url, sent := recordCodings(t, FileServer(site, Config{}))

	dom := browser.WaitDOM(t, url+"/", "ran styled")
	if !strings.Contains(dom, "ran styled") {
		t.Fatalf("page did not run with its stylesheet; DOM:\n%s", dom)
	}
	for _, p := range []string{"/app.js", "/site.css"} {
		if c := sent(p); c != "br" && c != "zstd" {
			t.Errorf("%s went out with Content-Encoding %q, want br or zstd from a sidecar", p, c)
		}
	}
}

// Headless Chromium, which sends "gzip, deflate, br, zstd" to 127.0.0.1,
// gets each asset in the coding of its smallest sidecar: the script and
// the stylesheet as br, smaller there than their .zst, and a second script
// as zstd, whose .br and .gz were made at low levels. The page shows that the
// browser decoded all three: the first script reads a custom property the
// stylesheet sets and a value the second script defines.
func TestChromiumDecodesSmallestSidecars(t *testing.T) {
	browser := interop.Chromium(t)
	gen := corpus.Site(1)
	css := append([]byte(":root { --marker: styled; }\n"), gen["css/theme.css"]...)
	lib := append([]byte("window.libMarker = \"lib\";\n"), gen["js/search.js"]...)
	js := append([]byte(`document.getElementById("out").textContent = "ran " + window.libMarker + " " + getComputedStyle(document.documentElement).getPropertyValue("--marker").trim();`+"\n"),
		gen["js/book.js"]...)
	site := fstest.MapFS{
		"index.html": file([]byte(`<!doctype html><html><head><link rel="stylesheet" href="site.css"></head>` +
			`<body><p id="out">not run</p><script src="lib.js"></script><script src="app.js"></script></body></html>`)),
	}
	want := map[string]string{"/app.js": "br", "/site.css": "br", "/lib.js": "zstd"}
	for name, src := range map[string][]byte{"app.js": js, "site.css": css, "lib.js": lib} {
		brLevel, gzipLevel := 11, 9
		if want["/"+name] == "zstd" {
			brLevel, gzipLevel = 1, 1
		}
		site[name+".br"] = file(compressAt(t, "br", brLevel, src))
		site[name+".zst"] = file(compress(t, "zstd", src))
		site[name+".gz"] = file(compressAt(t, "gzip", gzipLevel, src))
		if got := smallestOf(site, name, "zstd", "br", "gzip"); got != want["/"+name] {
			t.Fatalf("%s: the smallest sidecar is the %s one, the test needs %s", name, got, want["/"+name])
		}
	}
	url, sent := recordCodings(t, FileServer(site, Config{}))

	dom := browser.WaitDOM(t, url+"/", "ran lib styled")
	if !strings.Contains(dom, "ran lib styled") {
		t.Fatalf("page did not run both scripts with its stylesheet; DOM:\n%s", dom)
	}
	for p, coding := range want {
		if got := sent(p); got != coding {
			t.Errorf("%s went out with Content-Encoding %q, want %s, its smallest sidecar", p, got, coding)
		}
	}
}
