package precompressed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// gzipOnly keeps these tests to the coding they are about: brotli at
// quality 11 is slow under the race detector.
var gzipOnly = []Sidecar{{"gzip", ".gz"}}

// gzipLevel is b compressed by klauspost's gzip at level.
func gzipLevel(t *testing.T, b []byte, level int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ourSidecar is what Generate writes for b in coding.
func ourSidecar(t *testing.T, b []byte, coding string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := new(sidecarEncoder).encode(t.Context(), &buf, bytes.NewReader(b), int64(len(b)), coding); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// An existing sidecar that holds the original in fewer bytes than
// Generate makes, as one from a slower encoder can, is kept and marked up
// to date, with a manifest or without, whether its time is the original's
// (the report: precompress -manifest replaced a 29 914-byte
// jquery.min.js.gz with its own 30 792 bytes) or older.
func TestExistingSmallerSidecarNeverReplacedByALargerOne(t *testing.T) {
	body := buildScript(1, 30000)
	// klauspost's level 7 beats its level 9, which Generate uses, on
	// this file.
	smaller := gzipLevel(t, body, 7)
	if ours := ourSidecar(t, body, "gzip"); len(smaller) >= len(ours) {
		t.Fatalf("the existing sidecar (%d bytes) is not smaller than Generate's (%d): the test proves nothing", len(smaller), len(ours))
	}
	for _, tc := range []struct {
		name     string
		manifest string
		mtime    time.Time
	}{
		{"manifest, same time", DefaultManifest, t0},
		{"manifest, older", DefaultManifest, t0.Add(-time.Hour)},
		{"no manifest, older", "", t0.Add(-time.Hour)},
	} {
		dir := genTree(t, map[string][]byte{"app.js": body})
		writeAt(t, dir, "app.js.gz", smaller, tc.mtime)
		cfg := GenerateConfig{Manifest: tc.manifest, Sidecars: gzipOnly}
		rep := generate(t, dir, cfg)
		got, _ := os.ReadFile(filepath.Join(dir, "app.js.gz"))
		if !bytes.Equal(got, smaller) || rep.Kept != 1 || rep.Written != 0 {
			t.Errorf("%s: app.js.gz is %d bytes (was %d), report %+v; want it kept, Kept 1", tc.name, len(got), len(smaller), rep)
		}
		if fi, err := os.Stat(filepath.Join(dir, "app.js.gz")); err != nil || !fi.ModTime().Equal(t0) {
			t.Errorf("%s: kept app.js.gz not given the original's time: %v", tc.name, err)
		}
		if tc.manifest != "" {
			root, _ := os.OpenRoot(dir)
			m, err := ReadManifest(root.FS(), tc.manifest)
			root.Close()
			if err != nil {
				t.Fatal(err)
			}
			if _, blob, ok := m.sidecar("app.js", ".gz", int64(len(body))); !ok || blob.SHA256 != sha256Hex(smaller) {
				t.Errorf("%s: manifest records app.js.gz as %+v, want the kept file's hash", tc.name, blob)
			}
		}
		if rep := generate(t, dir, cfg); rep.UpToDate != 1 || rep.Kept != 0 || rep.Written != 0 {
			t.Errorf("%s: second run %+v; want it up to date", tc.name, rep)
		}
	}
}

// GenerateConfig.Rewrite asks for the sidecars this run makes, smaller or
// not.
func TestRewriteReplacesASmallerSidecar(t *testing.T) {
	body := buildScript(1, 30000)
	dir := genTree(t, map[string][]byte{"app.js": body})
	writeAt(t, dir, "app.js.gz", gzipLevel(t, body, 7), t0.Add(-time.Hour))
	rep := generate(t, dir, GenerateConfig{Rewrite: true, Sidecars: gzipOnly})
	got, _ := os.ReadFile(filepath.Join(dir, "app.js.gz"))
	if !bytes.Equal(got, ourSidecar(t, body, "gzip")) || rep.Written != 1 || rep.Kept != 0 {
		t.Errorf("with Rewrite: app.js.gz %d bytes, report %+v; want Generate's own written", len(got), rep)
	}
}

// Size only decides between sidecars of the same bytes: one that decodes
// to another version of the file, or to nothing, is replaced however
// small.
func TestSidecarOfOtherContentReplacedHoweverSmall(t *testing.T) {
	body := buildScript(2, 30000)
	for name, existing := range map[string][]byte{
		"earlier version": gzipLevel(t, buildScript(1, 30000), 9),
		"shorter file":    gzipLevel(t, body[:20000], 9),
		"longer file":     gzipLevel(t, append(bytes.Clone(body), body...), 9),
		"truncated":       gzipLevel(t, body, 9)[:500],
		"not gzip":        []byte("not a gzip member at all"),
	} {
		dir := genTree(t, map[string][]byte{"app.js": body})
		writeAt(t, dir, "app.js.gz", existing, t0.Add(-time.Hour))
		rep := generate(t, dir, GenerateConfig{Manifest: DefaultManifest, Sidecars: gzipOnly})
		got, _ := os.ReadFile(filepath.Join(dir, "app.js.gz"))
		if !bytes.Equal(decode(t, "gzip", got), body) || rep.Kept != 0 {
			t.Errorf("%s: app.js.gz decodes to other bytes after the run (report %+v); want it replaced", name, rep)
		}
	}
}
