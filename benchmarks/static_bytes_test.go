package benchmarks

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/corpus"
	"github.com/squeezehttp/squeeze/internal/interop"
	"github.com/squeezehttp/squeeze/precompressed"
)

// chromiumAcceptEncoding is what Chromium sends to a secure context or
// localhost.
const chromiumAcceptEncoding = "gzip, deflate, br, zstd"

// sidecarTools are the reference command-line encoders at their usual
// highest settings, each run once over every file of a tree, keeping the
// originals and writing name+ext beside them.
var sidecarTools = map[string]struct {
	impl, tool, ext string
	args            []string
}{
	"zstd": {"zstd-19", "zstd", ".zst", []string{"-q", "-k", "-f", "-19"}},
	"br":   {"brotli-q11", "brotli", ".br", []string{"-k", "-f", "-q", "11"}},
	"gzip": {"gzip-9", "gzip", ".gz", []string{"-k", "-f", "-n", "-9"}},
}

// BenchmarkStaticBytes measures the bytes of the static path over the
// site-like tree of internal/corpus.StaticTree (80 files, about 1.2 MB):
//
//   - sidecars/coding=C: the sidecars precompressed.Generate writes (one
//     worker, every file kept) against the C tool's at its highest usual
//     setting, B in all and s/tree to make them;
//   - chromium/sidecars: what a client sending Chromium's Accept-Encoding
//     receives for the tree from precompressed.FileServer over the
//     generator's three sidecars, smallest-first (the default) against
//     the Sidecars order, zstd first (Config.PreferOrder);
//   - chromium/fallback: the same client and tree without sidecars, from
//     the fallback cache after its background recompression (the
//     default) against before it.
func BenchmarkStaticBytes(b *testing.B) {
	tree, err := corpus.StaticTree()
	if err != nil {
		b.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(tree))
	dir := b.TempDir()
	paths, err := corpus.WriteTree(dir, tree)
	if err != nil {
		b.Fatal(err)
	}
	for _, sc := range precompressed.DefaultSidecars() {
		b.Run("sidecars/coding="+sc.Coding+"/impl=squeeze", func(b *testing.B) {
			cfg := precompressed.GenerateConfig{Sidecars: []precompressed.Sidecar{sc}, MinSize: precompressed.EverySize,
				MinSaving: precompressed.AnySaving, Workers: 1}
			var n int64
			for b.Loop() {
				removeSidecars(b, paths, sc.Ext)
				if _, err := precompressed.Generate(context.Background(), dir, cfg); err != nil {
					b.Fatal(err)
				}
				n = sidecarBytes(b, paths, sc.Ext)
			}
			reportTree(b, n)
		})
		tool := sidecarTools[sc.Coding]
		b.Run("sidecars/coding="+sc.Coding+"/impl="+tool.impl, func(b *testing.B) {
			// Skips, or fails under SQUEEZE_INTEROP=require, when missing.
			peer := interop.LookPath(b, tool.tool, tool.tool)
			var n int64
			for b.Loop() {
				if out, err := exec.Command(peer.Path, append(slices.Clone(tool.args), paths...)...).CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", tool.tool, err, out)
				}
				n = sidecarBytes(b, paths, sc.Ext)
			}
			reportTree(b, n)
		})
	}
	// The generator's three sidecars, for the server.
	for _, sc := range precompressed.DefaultSidecars() {
		removeSidecars(b, paths, sc.Ext)
	}
	if _, err := precompressed.Generate(context.Background(), dir, precompressed.GenerateConfig{}); err != nil {
		b.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	for _, c := range []struct {
		impl string
		cfg  precompressed.Config
	}{{"squeeze", precompressed.Config{}}, {"sidecars-order", precompressed.Config{PreferOrder: true}}} {
		b.Run("chromium/sidecars/impl="+c.impl, func(b *testing.B) {
			h := precompressed.FileServerRoot(root, c.cfg)
			var n int64
			for b.Loop() {
				n = treeBytes(b, h, names)
			}
			b.ReportMetric(float64(n), "B")
		})
	}
	plain := b.TempDir()
	if _, err := corpus.WriteTree(plain, tree); err != nil {
		b.Fatal(err)
	}
	plainRoot, err := os.OpenRoot(plain)
	if err != nil {
		b.Fatal(err)
	}
	defer plainRoot.Close()
	for _, impl := range []string{"squeeze", "before-recompression"} {
		b.Run("chromium/fallback/impl="+impl, func(b *testing.B) {
			h := precompressed.FileServerRoot(plainRoot, precompressed.Config{})
			first := treeBytes(b, h, names)
			if impl == "squeeze" {
				// Past FallbackRecompressAfter, then the time the one
				// worker needs for the tree (seconds: brotli 11).
				for range precompressed.DefaultFallbackRecompressAfter {
					treeBytes(b, h, names)
				}
				waitRecompressed(b, h, names, first)
			}
			var n int64
			for b.Loop() {
				n = treeBytes(b, h, names)
			}
			b.ReportMetric(float64(n), "B")
		})
	}
}

// removeSidecars deletes the sidecars with extension ext of paths.
func removeSidecars(tb testing.TB, paths []string, ext string) {
	for _, p := range paths {
		if err := os.Remove(p + ext); err != nil && !os.IsNotExist(err) {
			tb.Fatal(err)
		}
	}
}

// sidecarBytes sums the sizes of the sidecars with extension ext of paths.
func sidecarBytes(tb testing.TB, paths []string, ext string) int64 {
	var n int64
	for _, p := range paths {
		fi, err := os.Stat(p + ext)
		if err != nil {
			tb.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

// reportTree reports the bytes of a tree's sidecars and the seconds per
// tree.
func reportTree(b *testing.B, n int64) {
	b.ReportMetric(float64(n), "B")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/tree")
}

// treeBytes requests every file of names from h as Chromium would and
// returns the body bytes received.
func treeBytes(tb testing.TB, h http.Handler, names []string) int64 {
	var n int64
	for _, name := range names {
		r := httptest.NewRequest("GET", "/"+strings.TrimSuffix(name, "index.html"), nil)
		r.Header.Set("Accept-Encoding", chromiumAcceptEncoding)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			tb.Fatalf("%s: status %d", name, w.Code)
		}
		n += int64(w.Body.Len())
	}
	return n
}

// waitRecompressed requests the tree from h until the bytes it gets are
// fewer than first and stay the same for a second: the background
// recompression has gone through every file (it queues at most 64 at a
// time, and the requests queue the rest).
func waitRecompressed(tb testing.TB, h http.Handler, names []string, first int64) {
	last, same := int64(-1), 0
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		n := treeBytes(tb, h, names)
		if n == last && n < first {
			if same++; same == 4 {
				return
			}
		} else {
			same = 0
		}
		last = n
	}
	tb.Fatalf("the fallback's bytes for the tree did not settle below %d within 3 minutes", first)
}
