package precompressed

import (
	"bytes"
	"context"
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/corpus"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// cTools are the reference command-line encoders the generator's sidecars
// are measured against, each run once over every file of the tree, keeping
// the originals (-k) and writing name+ext beside them.
var cTools = []struct {
	coding, tool, debian, ext, setting string
	args                               []string
}{
	{"zstd", "zstd", "zstd", ".zst", "-19", []string{"-q", "-k", "-f", "-19"}},
	{"br", "brotli", "brotli", ".br", "-q 11", []string{"-k", "-f", "-q", "11"}},
	{"gzip", "gzip", "gzip", ".gz", "-9", []string{"-k", "-f", "-n", "-9"}},
}

// TestSidecarsAgainstCTools compares the generator's sidecars with the
// reference tools' at their usual highest settings, `zstd -19`,
// `brotli -q 11` and `gzip -9`, over the site-like tree: bytes and time
// per coding, side by side in the log (the tools on one core, as the
// generator's encoder is). Its brotli and gzip sidecars are no larger than
// the tools'. Its zstd sidecars are larger: klauspost's best level has no
// optimal parser like libzstd's btultra2, and none of the encoder's
// options (window, CRC, literal entropy coding) narrows the gap, which
// grows with the file; the test fails when it passes 6 % over this tree.
func TestSidecarsAgainstCTools(t *testing.T) {
	interop.Peers(t)
	tree := staticTree(t)
	names := slices.Sorted(maps.Keys(tree))
	paths, err := corpus.WriteTree(t.TempDir(), tree)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, src := range tree {
		total += len(src)
	}
	t.Logf("%d files, %d bytes; generator's encoder against the C tools, on a busy 2-core machine", len(tree), total)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	for _, ct := range cTools {
		peer := interop.LookPath(t, ct.tool, ct.debian)
		start := time.Now()
		peer.Run(t, append(slices.Clone(ct.args), paths...)...)
		toolTime := time.Since(start)
		toolBytes := 0
		for _, p := range paths {
			b, err := os.ReadFile(p + ct.ext)
			if err != nil {
				t.Fatal(err)
			}
			toolBytes += len(b)
		}

		var enc sidecarEncoder
		ours := 0
		sidecars := make([]bytes.Buffer, len(names))
		start = time.Now()
		for i, name := range names {
			src := tree[name]
			if err := enc.encode(ctx, &sidecars[i], bytes.NewReader(src), int64(len(src)), ct.coding); err != nil {
				t.Fatal(err)
			}
			ours += sidecars[i].Len()
		}
		ourTime := time.Since(start)
		for i, name := range names {
			if !bytes.Equal(decode(t, ct.coding, sidecars[i].Bytes()), tree[name]) {
				t.Fatalf("%s: the %s sidecar does not decode to the file", name, ct.coding)
			}
		}
		gap := 100 * float64(ours-toolBytes) / float64(toolBytes)
		t.Logf("%-4s generator %7d bytes in %6.2fs | %s %s: %7d bytes in %6.2fs | %+.2f %%",
			ct.coding, ours, ourTime.Seconds(), ct.tool, ct.setting, toolBytes, toolTime.Seconds(), gap)
		switch limit := 0.0; {
		case ct.coding == "zstd":
			if limit = 6; gap > limit {
				t.Errorf("zstd sidecars %+.2f %% over zstd -19, more than the %.0f %% they were", gap, limit)
			}
		case gap > limit:
			t.Errorf("%s sidecars %d bytes, larger than %s's %d", ct.coding, ours, ct.tool, toolBytes)
		}
	}
}
