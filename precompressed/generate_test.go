package precompressed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// genTree writes files (slash-separated name to content) under a new
// temporary directory, each dated t0, and returns the directory.
func genTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		writeAt(t, dir, name, b, t0)
	}
	return dir
}

// writeAt writes one file of a test tree with modification time mtime.
func writeAt(t *testing.T, dir, name string, b []byte, mtime time.Time) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// generate runs Generate and fails the test on error.
func generate(t *testing.T, dir string, cfg GenerateConfig) Report {
	t.Helper()
	rep, err := Generate(t.Context(), dir, cfg)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return rep
}

// listTree returns every file under dir with its size and modification
// time, to compare a tree before and after a run.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %s %d bytes", rel, fi.ModTime().Format(time.RFC3339Nano), fi.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// cssBody is a second compressible original.
var cssBody = []byte(strings.Repeat(".btn { color: #333; padding: 4px 8px; border-radius: 3px; }\n", 30))

func TestGeneratedSidecarsDecodeToOriginal(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody, "css/site.css": cssBody})
	rep := generate(t, dir, GenerateConfig{})
	if rep.Written != 6 || rep.Compressible != 2 {
		t.Fatalf("report %+v: want 6 sidecars written for 2 compressible files", rep)
	}
	for _, name := range []string{"app.js", "css/site.css"} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		for _, sc := range DefaultSidecars() {
			b, err := os.ReadFile(filepath.Join(dir, name+sc.Ext))
			if err != nil {
				t.Fatalf("%s sidecar of %s: %v", sc.Coding, name, err)
			}
			if got := decode(t, sc.Coding, b); !bytes.Equal(got, want) {
				t.Errorf("%s%s decodes to %d bytes that differ from the %d of the original", name, sc.Ext, len(got), len(want))
			}
			if len(b) >= len(want) {
				t.Errorf("%s%s is %d bytes, not smaller than the original's %d", name, sc.Ext, len(b), len(want))
			}
		}
	}
}

// RFC 1952 §2.3.1: a .gz sidecar's header has no name and MTIME 0, "no time
// stamp" (klauspost's writer left alone would send a date in 2042), so the
// same original always makes the same bytes.
func TestGzipSidecarHasNoNameAndNoTimeStamp(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody, "css/site.css": cssBody})
	generate(t, dir, GenerateConfig{})
	for _, name := range []string{"app.js.gz", "css/site.css.gz"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if flags, mtime := b[3], binary.LittleEndian.Uint32(b[4:8]); flags != 0 || mtime != 0 {
			t.Errorf("%s: FLG %#x, MTIME %d; want 0 and 0", name, flags, mtime)
		}
	}
}

func TestSidecarKeepsOriginalModTime(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody})
	generate(t, dir, GenerateConfig{})
	for _, sc := range DefaultSidecars() {
		fi, err := os.Stat(filepath.Join(dir, "app.js"+sc.Ext))
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(t0) {
			t.Errorf("app.js%s modified %v, want the original's %v", sc.Ext, fi.ModTime(), t0)
		}
	}
}

func TestSecondRunWritesNothing(t *testing.T) {
	for _, manifest := range []string{"", DefaultManifest} {
		t.Run("manifest="+manifest, func(t *testing.T) {
			dir := genTree(t, map[string][]byte{"app.js": jsBody, "css/site.css": cssBody, "logo.png": pseudoRandom(2000)})
			generate(t, dir, GenerateConfig{Manifest: manifest})
			before := listTree(t, dir)
			rep := generate(t, dir, GenerateConfig{Manifest: manifest})
			if rep.Written != 0 || rep.Deleted != 0 || rep.UpToDate != 6 {
				t.Errorf("second run: %+v; want 0 written, 0 deleted, 6 up to date", rep)
			}
			if after := listTree(t, dir); !slices.Equal(before, after) {
				t.Errorf("second run changed the tree:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

func TestChangedOriginalRegenerates(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody})
	generate(t, dir, GenerateConfig{})
	changed := append(bytes.Clone(jsBody), "console.log('v2');\n"...)
	writeAt(t, dir, "app.js", changed, t0.Add(time.Hour))
	if rep := generate(t, dir, GenerateConfig{}); rep.Written != 3 {
		t.Fatalf("after the original changed: %d sidecars written, want 3", rep.Written)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "app.js.br"))
	if !bytes.Equal(decode(t, "br", b), changed) {
		t.Error("app.js.br does not hold the changed original")
	}
}

// With a manifest the hashes decide: a checkout that gives every file a
// new modification time costs no recompression, and an original edited
// without its time moving is still regenerated.
func TestManifestHashDecidesUpToDate(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody})
	cfg := GenerateConfig{Manifest: DefaultManifest}
	generate(t, dir, cfg)
	later := t0.Add(48 * time.Hour)
	os.Chtimes(filepath.Join(dir, "app.js"), later, later)
	if rep := generate(t, dir, cfg); rep.Written != 0 || rep.UpToDate != 3 {
		t.Errorf("after only the original's time moved: %+v, want 3 up to date and none written", rep)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "app.js.zst")); !fi.ModTime().Equal(later) {
		t.Errorf("app.js.zst modified %v, want the original's new time %v", fi.ModTime(), later)
	}
	edited := bytes.ToUpper(jsBody) // same size, same time
	writeAt(t, dir, "app.js", edited, later)
	if rep := generate(t, dir, cfg); rep.Written != 3 {
		t.Errorf("after a same-size edit keeping the time: %d written, want 3", rep.Written)
	}
}

func TestSidecarNotWorthItSkippedAndStaleOneDeleted(t *testing.T) {
	noise := pseudoRandom(4000)
	dir := genTree(t, map[string][]byte{"noise.txt": noise, "app.js": jsBody})
	// Left by an earlier run, when the file was still compressible.
	writeAt(t, dir, "noise.txt.gz", compress(t, "gzip", jsBody), t0.Add(-time.Hour))
	rep := generate(t, dir, GenerateConfig{})
	if rep.NotWorthIt != 3 || rep.Deleted != 1 || rep.Written != 3 {
		t.Errorf("report %+v: want 3 not worth it (noise.txt), 1 deleted (the old noise.txt.gz), 3 written (app.js)", rep)
	}
	for _, sc := range DefaultSidecars() {
		if _, err := os.Stat(filepath.Join(dir, "noise.txt"+sc.Ext)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("noise.txt%s exists (err %v); random bytes save nothing and get no sidecar", sc.Ext, err)
		}
	}
}

func TestMinSavingIsConfigurable(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody})
	// jsBody repeats one line: every coding saves well over 90 %.
	if rep := generate(t, dir, GenerateConfig{MinSaving: 0.999}); rep.Written != 0 || rep.NotWorthIt != 3 {
		t.Errorf("MinSaving 0.999: %+v, want nothing written", rep)
	}
	if rep := generate(t, dir, GenerateConfig{MinSaving: 0.5}); rep.Written != 3 {
		t.Errorf("MinSaving 0.5: %+v, want 3 written", rep)
	}
	// A sidecar that saves a few bytes of a random file: under
	// DefaultMinSaving, but smaller all the same.
	dir = genTree(t, map[string][]byte{"noise.js": append(bytes.Repeat([]byte("a"), 80), pseudoRandom(2000)...)})
	gz := []Sidecar{{"gzip", ".gz"}}
	if rep := generate(t, dir, GenerateConfig{Sidecars: gz}); rep.Written != 0 {
		t.Errorf("MinSaving 0 (DefaultMinSaving): %+v, want nothing written", rep)
	}
	if rep := generate(t, dir, GenerateConfig{Sidecars: gz, MinSaving: AnySaving}); rep.Written != 1 {
		t.Errorf("MinSaving AnySaving: %+v, want the smaller sidecar written", rep)
	}
}

func TestOnlyCompressibleFilesAboveMinSize(t *testing.T) {
	dir := genTree(t, map[string][]byte{
		"app.js":      jsBody,
		"small.js":    []byte("let a = 1;\n"),
		"photo.jpg":   bytes.Repeat([]byte("jpeg"), 1000),
		"README":      bytes.Repeat([]byte("plain text, sniffed as such\n"), 40),
		".hidden.css": cssBody,
	})
	generate(t, dir, GenerateConfig{})
	for name, want := range map[string]bool{"app.js.br": true, "README.br": true, "small.js.br": false, "photo.jpg.br": false, ".hidden.css.br": false} {
		_, err := os.Stat(filepath.Join(dir, name))
		if got := err == nil; got != want {
			t.Errorf("%s exists: %t, want %t", name, got, want)
		}
	}
}

// Zero means DefaultMinSize, as for every size knob; EverySize gives a
// sidecar to a file of one byte too, when it is worth it, but never to an
// empty one.
func TestGenerateMinSizeZeroIsTheDefaultAndEverySizeIsEvery(t *testing.T) {
	small := bytes.Repeat([]byte("a"), 100) // compressible, under DefaultMinSize
	dir := genTree(t, map[string][]byte{"small.js": small, "empty.js": nil})
	if rep := generate(t, dir, GenerateConfig{}); rep.Compressible != 0 {
		t.Errorf("MinSize 0: %d compressible, want 0 (small.js is under DefaultMinSize)", rep.Compressible)
	}
	if rep := generate(t, dir, GenerateConfig{MinSize: EverySize}); rep.Compressible != 1 || rep.Written == 0 {
		t.Errorf("MinSize EverySize: %+v; want small.js compressed and empty.js left alone", rep)
	}
}

func TestOrphanedSidecarsDeletedOnlyWhenAsked(t *testing.T) {
	dir := genTree(t, map[string][]byte{
		"gone.js.br":     jsSidecar(t, "br"),
		"backup.tar.gz":  compress(t, "gzip", jsBody), // an archive, not a sidecar
		"app.js":         jsBody,
		"app.js.zst.old": []byte("x"),
	})
	if rep := generate(t, dir, GenerateConfig{}); rep.Deleted != 0 {
		t.Errorf("without DeleteOrphans: %d deleted, want 0", rep.Deleted)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.js.br")); err != nil {
		t.Fatalf("orphan deleted without DeleteOrphans: %v", err)
	}
	if rep := generate(t, dir, GenerateConfig{DeleteOrphans: true}); rep.Deleted != 1 {
		t.Errorf("with DeleteOrphans: %d deleted, want 1 (gone.js.br)", rep.Deleted)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.js.br")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("gone.js.br still there (err %v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "backup.tar.gz")); err != nil {
		t.Errorf("backup.tar.gz, an archive of a type never compressed, was taken for an orphan: %v", err)
	}
}

func TestGenerateRefusesSymlinkEscape(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "secret.js")
	if err := os.WriteFile(secret, jsBody, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "site")
	writeAt(t, dir, "app.js", jsBody, t0)
	if err := os.Symlink(secret, filepath.Join(dir, "escape.js")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("app.js", filepath.Join(dir, "alias.js")); err != nil {
		t.Fatal(err)
	}
	generate(t, dir, GenerateConfig{Sidecars: []Sidecar{{"gzip", ".gz"}}})
	for _, name := range []string{"escape.js.gz", "up/secret.js.gz", "../secret.js.gz"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists (err %v): a link out of the tree was followed", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "alias.js.gz")); err != nil {
		t.Errorf("alias.js, a link to a file inside the tree, got no sidecar: %v", err)
	}
}

func TestGenerateCancelledLeavesNoTempFiles(t *testing.T) {
	t.Parallel()
	// 200 files of 32 KB at brotli quality 11 take several seconds; the
	// cancel comes while workers are inside files, whose temporary files
	// must go.
	files := map[string][]byte{}
	text := variedText(200 * 32 << 10)
	for i := range 200 {
		files[fmt.Sprintf("f%03d.txt", i)] = text[i*32<<10 : (i+1)*32<<10]
	}
	dir := genTree(t, files)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	rep, err := Generate(ctx, dir, GenerateConfig{Sidecars: []Sidecar{{"br", ".br"}}, Workers: 2})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Generate after cancel: %v, want context.Canceled", err)
	}
	// A hang guard, not a timing: the run should stop within a file.
	if d := time.Since(start); d > time.Minute {
		t.Errorf("Generate took %v to stop after cancel", d)
	}
	written := 0
	for _, f := range listTree(t, dir) {
		if strings.Contains(f, tempSuffix) {
			t.Errorf("temporary file left after cancel: %s", f)
		}
		if strings.Contains(f, ".br ") {
			written++
		}
	}
	if written >= 200 {
		t.Errorf("all %d sidecars written: the cancel came too late to test anything", written)
	}
	if rep.Written != written {
		t.Errorf("report says %d written, the tree holds %d", rep.Written, written)
	}
}

func TestGenerateRefusesToOverwriteForeignManifest(t *testing.T) {
	pkg := []byte(`{"name": "site", "version": "1.0.0"}`)
	dir := genTree(t, map[string][]byte{"app.js": jsBody, "package.json": pkg})
	if _, err := Generate(t.Context(), dir, GenerateConfig{Manifest: "package.json"}); err == nil || !strings.Contains(err.Error(), "not a manifest") {
		t.Errorf("Generate with package.json as the manifest: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "package.json")); !bytes.Equal(b, pkg) {
		t.Error("package.json was overwritten")
	}
}

func TestProgressWrittenOnlyWhenAsked(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody, "css/site.css": cssBody})
	var progress, log bytes.Buffer
	generate(t, dir, GenerateConfig{Progress: &progress, Log: &log, Sidecars: []Sidecar{{"gzip", ".gz"}}})
	if got := progress.String(); !strings.HasPrefix(got, "\r") || !strings.Contains(got, "2/2 files") || !strings.HasSuffix(got, "\n") {
		t.Errorf("progress %q: want carriage-return updates ending in 2/2 files and a newline", got)
	}
	if got := log.String(); strings.Count(got, "wrote ") != 2 {
		t.Errorf("log %q: want a line per sidecar written", got)
	}
}

// A configuration Generate cannot follow is an error naming the field,
// returned before anything is written.
func TestGenerateRejectsBadConfigNamingTheField(t *testing.T) {
	dir := genTree(t, map[string][]byte{"app.js": jsBody})
	for _, tc := range []struct {
		cfg  GenerateConfig
		want string
	}{
		{GenerateConfig{Sidecars: []Sidecar{{"br", ".br"}, {"deflate", ".zz"}}}, "GenerateConfig.Sidecars[1]"},
		{GenerateConfig{Sidecars: []Sidecar{{"br", "br"}}}, "GenerateConfig.Sidecars[0]"},
		{GenerateConfig{Sidecars: []Sidecar{}}, "GenerateConfig.Sidecars is empty"},
		{GenerateConfig{MinSize: -1}, "GenerateConfig.MinSize -1"},
		{GenerateConfig{MinSaving: 1}, "GenerateConfig.MinSaving 1"},
		{GenerateConfig{MinSaving: -1}, "GenerateConfig.MinSaving -1"},
		{GenerateConfig{MinSaving: math.NaN()}, "GenerateConfig.MinSaving NaN"},
		{GenerateConfig{Workers: -1}, "GenerateConfig.Workers -1"},
		{GenerateConfig{DeltaLevel: 23, Deltas: func(string) []string { return nil }}, "GenerateConfig.DeltaLevel 23"},
		{GenerateConfig{Manifest: "../precompress.json"}, "GenerateConfig.Manifest"},
		{GenerateConfig{Manifest: "/precompress.json"}, "GenerateConfig.Manifest"},
	} {
		_, err := Generate(t.Context(), dir, tc.cfg)
		if err == nil || !strings.HasPrefix(err.Error(), "precompressed: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Generate(%+v): error %v; want one naming %s", tc.cfg, err, tc.want)
		}
	}
	if names := listTree(t, dir); len(names) != 1 {
		t.Errorf("rejected configurations wrote %v", names)
	}
	writeAt(t, dir, DefaultManifest, []byte("{}"), t0)
	if _, err := Generate(t.Context(), dir, GenerateConfig{Manifest: DefaultManifest}); err == nil || !strings.Contains(err.Error(), "GenerateConfig.Manifest "+DefaultManifest+": not a manifest") {
		t.Errorf("Generate over a file that is not a manifest: error %v; want one naming GenerateConfig.Manifest", err)
	}
	if _, err := Generate(t.Context(), filepath.Join(dir, "missing"), GenerateConfig{}); err == nil {
		t.Error("Generate on a missing directory succeeded")
	}
}

// variedText returns n bytes of text made of words in a pseudo-random
// order: compressible, but with few long matches, so that the best levels
// work hard on it.
func variedText(n int) []byte {
	words := strings.Fields("the quick brown fox jumps over lazy dog while seven wizards quietly hex jam bags of pure mixed flax")
	b := make([]byte, 0, n+16)
	x := uint32(2463534242)
	for len(b) < n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b = append(b, words[x%uint32(len(words))]...)
		b = append(b, " \n"[x>>31&1])
	}
	return b[:n]
}

// sha256Hex is the manifest form of a hash.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
