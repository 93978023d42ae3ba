package precompressed

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// chromiumAccept is what Chromium sends to a secure context or localhost.
const chromiumAccept = "gzip, deflate, br, zstd"

// mixedSidecarSite is siteTree with all three sidecars beside every file:
// every other file's .br made at brotli quality 11, so that br is the
// smallest, the others' at quality 1, below zstd's best level, so that
// zstd is. It returns the tree and how many files each coding is
// smallest for.
func mixedSidecarSite(t testing.TB) (fstest.MapFS, map[string]int) {
	t.Helper()
	fsys := fstest.MapFS{}
	smallest := map[string]int{}
	tree := corpus.Site(1)
	for i, name := range slices.Sorted(maps.Keys(tree)) {
		src := tree[name]
		fsys[name] = file(src)
		brLevel := 11
		if i%2 == 1 {
			brLevel = 1
		}
		best, bestSize := "", len(src)
		for coding, b := range map[string][]byte{
			"br":   compressAt(t, "br", brLevel, src),
			"zstd": compressAt(t, "zstd", int(zstd.SpeedBestCompression), src),
			"gzip": compressAt(t, "gzip", 9, src),
		} {
			fsys[name+extOf(coding)] = file(b)
			if len(b) < bestSize || len(b) == bestSize && coding < best {
				best, bestSize = coding, len(b)
			}
		}
		smallest[best]++
	}
	return fsys, smallest
}

// urlPath is the path that requests name: a directory's index.html is
// served under the directory's own name.
func urlPath(name string) string {
	return "/" + strings.TrimSuffix(name, "index.html")
}

func extOf(coding string) string {
	for _, sc := range DefaultSidecars() {
		if sc.Coding == coding {
			return sc.Ext
		}
	}
	return ""
}

// smallestOf returns which of codings has the smallest sidecar of name in
// fsys, the first listed among equals.
func smallestOf(fsys fstest.MapFS, name string, codings ...string) string {
	best := ""
	for _, c := range codings {
		if best == "" || len(fsys[name+extOf(c)].Data) < len(fsys[name+extOf(best)].Data) {
			best = c
		}
	}
	return best
}

// RFC 9110 §12.5.3 leaves the choice among equally weighted codings to the
// server: precompressed sends the smallest sidecar it has, whichever
// coding that is, and the client's weights still come first.
func TestSmallestAcceptableSidecarWins(t *testing.T) {
	fsys, smallest := mixedSidecarSite(t)
	if smallest["br"] == 0 || smallest["zstd"] == 0 {
		t.Fatalf("the tree proves nothing: smallest sidecars per coding %v, want both br and zstd", smallest)
	}
	h := FileServer(fsys, Config{})
	tests := []struct {
		accept string
		equal  []string // the codings the client weighs highest
	}{
		{chromiumAccept, []string{"zstd", "br", "gzip"}},
		{"br, gzip", []string{"br", "gzip"}},
		{"zstd, gzip", []string{"zstd", "gzip"}},
		{"zstd, br;q=0.9, gzip;q=0.9", []string{"zstd"}},             // q-values first
		{"zstd;q=0.5, br;q=0.8, gzip;q=0.8", []string{"br", "gzip"}}, // equal below the top
		{"*", []string{"zstd", "br", "gzip"}},
	}
	for name := range corpus.Site(1) {
		for _, tt := range tests {
			want := smallestOf(fsys, name, tt.equal...)
			w := do(h, "GET", urlPath(name), "Accept-Encoding", tt.accept)
			got := w.Header().Get("Content-Encoding")
			if got != want || !bytes.Equal(w.Body.Bytes(), fsys[name+extOf(want)].Data) {
				t.Errorf("%s, Accept-Encoding %q: sent %s (%d bytes), want the smallest acceptable, %s (%d bytes; sizes zstd %d, br %d, gzip %d)",
					name, tt.accept, got, w.Body.Len(), want, len(fsys[name+extOf(want)].Data),
					len(fsys[name+".zst"].Data), len(fsys[name+".br"].Data), len(fsys[name+".gz"].Data))
			}
			if !strings.HasSuffix(w.Header().Get("ETag"), "-"+want+`"`) || w.Header().Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s, Accept-Encoding %q: ETag %s, Vary %q; want a tag of the %s variant and Vary: Accept-Encoding", name, tt.accept, w.Header().Get("ETag"), w.Header().Get("Vary"), want)
			}
		}
	}
}

// The variant chosen by size answers HEAD, Range and conditional requests
// as the variant chosen by order did: on its own bytes, under its own tag.
func TestSmallestWinsKeepsHeadRangeAndConditionals(t *testing.T) {
	fsys, _ := mixedSidecarSite(t)
	h := FileServer(fsys, Config{})
	for _, name := range []string{"js/book.js", "css/theme.css"} {
		want := smallestOf(fsys, name, "zstd", "br", "gzip")
		body := fsys[name+extOf(want)].Data
		full := do(h, "GET", "/"+name, "Accept-Encoding", chromiumAccept)
		tag := full.Header().Get("ETag")
		if w := do(h, "HEAD", "/"+name, "Accept-Encoding", chromiumAccept); w.Header().Get("Content-Encoding") != want ||
			w.Header().Get("Content-Length") != strconv.Itoa(len(body)) || w.Body.Len() != 0 || w.Header().Get("ETag") != tag {
			t.Errorf("%s HEAD: Content-Encoding %q, Content-Length %q, %d body bytes, ETag %s; want %s, %d, none, %s",
				name, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Length"), w.Body.Len(), w.Header().Get("ETag"), want, len(body), tag)
		}
		if w := do(h, "GET", "/"+name, "Accept-Encoding", chromiumAccept, "Range", "bytes=3-20", "If-Range", tag); w.Code != 206 || !bytes.Equal(w.Body.Bytes(), body[3:21]) {
			t.Errorf("%s Range: status %d, %d bytes; want 206 and bytes 3-20 of the %s sidecar", name, w.Code, w.Body.Len(), want)
		}
		if w := do(h, "GET", "/"+name, "Accept-Encoding", chromiumAccept, "If-None-Match", tag); w.Code != 304 || w.Header().Get("ETag") != tag || w.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s If-None-Match: status %d, ETag %s, Vary %q; want 304 with the tag and Vary", name, w.Code, w.Header().Get("ETag"), w.Header().Get("Vary"))
		}
		if w := do(h, "GET", "/"+name, "Accept-Encoding", chromiumAccept, "If-Match", tag); w.Code != 200 {
			t.Errorf("%s If-Match with the smallest variant's tag: status %d, want 200", name, w.Code)
		}
	}
}

// A directory's index.html and a file whose original is missing choose
// among their sidecars by size too; a client that accepts none of them
// still gets the decoded file.
func TestSmallestWinsForIndexAndMissingOriginal(t *testing.T) {
	fsys, _ := mixedSidecarSite(t)
	for _, name := range []string{"index.html", "js/search.js"} {
		delete(fsys, name) // only the sidecars remain
	}
	h := FileServer(fsys, Config{})
	tree := corpus.Site(1)
	for _, tc := range []struct{ target, name string }{{"/", "index.html"}, {"/js/search.js", "js/search.js"}} {
		want := smallestOf(fsys, tc.name, "zstd", "br", "gzip")
		w := do(h, "GET", tc.target, "Accept-Encoding", chromiumAccept)
		if w.Code != 200 || w.Header().Get("Content-Encoding") != want || !bytes.Equal(w.Body.Bytes(), fsys[tc.name+extOf(want)].Data) {
			t.Errorf("%s: status %d, Content-Encoding %q, %d bytes; want 200 and the smallest sidecar, %s", tc.target, w.Code, w.Header().Get("Content-Encoding"), w.Body.Len(), want)
		}
		if w := do(h, "GET", tc.target); w.Code != 200 || !bytes.Equal(w.Body.Bytes(), tree[tc.name]) {
			t.Errorf("%s without Accept-Encoding: status %d, %d bytes; want the decoded file", tc.target, w.Code, w.Body.Len())
		}
	}
}

// Config.PreferOrder keeps the Sidecars order for ties: zstd first by
// default, even where the .br is smaller.
func TestPreferOrderServesFirstSidecarAmongEquals(t *testing.T) {
	fsys, _ := mixedSidecarSite(t)
	h := FileServer(fsys, Config{PreferOrder: true})
	brSmaller := 0
	for _, name := range []string{"js/book.js", "css/theme.css", "index.html", "searchindex.json"} {
		if smallestOf(fsys, name, "zstd", "br") == "br" {
			brSmaller++
		}
		if got := do(h, "GET", urlPath(name), "Accept-Encoding", chromiumAccept).Header().Get("Content-Encoding"); got != "zstd" {
			t.Errorf("%s with PreferOrder: Content-Encoding %q, want zstd, first in DefaultSidecars", name, got)
		}
	}
	if brSmaller == 0 {
		t.Fatal("no file has a smaller .br: the test proves nothing")
	}
}

// TestSmallestWinsSavesBytesOverOrder reports what a Chromium-like client
// gets for the whole tree by order and by size, the static-bytes figure.
func TestSmallestWinsSavesBytesOverOrder(t *testing.T) {
	fsys := fstest.MapFS{}
	for name, src := range corpus.Site(2) {
		fsys[name] = file(src)
		for _, sc := range DefaultSidecars() {
			fsys[name+sc.Ext] = file(compress(t, sc.Coding, src))
		}
	}
	total := func(cfg Config) (n int) {
		h := FileServer(fsys, cfg)
		for name := range corpus.Site(2) {
			n += do(h, "GET", urlPath(name), "Accept-Encoding", chromiumAccept).Body.Len()
		}
		return n
	}
	byOrder, bySize := total(Config{PreferOrder: true}), total(Config{})
	t.Logf("site tree with the library's best-level sidecars, Accept-Encoding %q: %d bytes by the Sidecars order, %d smallest-first (%+.1f %%)",
		chromiumAccept, byOrder, bySize, 100*float64(bySize-byOrder)/float64(byOrder))
	if bySize > byOrder {
		t.Errorf("smallest-first sent %d bytes, more than the %d of the Sidecars order", bySize, byOrder)
	}
}
