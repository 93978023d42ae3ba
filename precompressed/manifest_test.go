package precompressed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// manifestSite generates sidecars and a manifest for a small tree and
// returns the directory, opened as an os.Root, and the manifest read back.
func manifestSite(t *testing.T) (string, *os.Root, *Manifest) {
	t.Helper()
	dir := genTree(t, map[string][]byte{"app.js": jsBody, "logo.png": pseudoRandom(3000)})
	generate(t, dir, GenerateConfig{Manifest: DefaultManifest})
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	m, err := ReadManifest(root.FS(), DefaultManifest)
	if err != nil {
		t.Fatalf("ReadManifest of what Generate wrote: %v", err)
	}
	return dir, root, m
}

func TestManifestRecordsOriginalsAndSidecars(t *testing.T) {
	dir, _, m := manifestSite(t)
	for _, name := range []string{"app.js", "logo.png"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		f, ok := m.original(name, int64(len(b)))
		if !ok {
			t.Fatalf("manifest has no entry for %s of %d bytes", name, len(b))
		}
		if f.SHA256 != sha256Hex(b) {
			t.Errorf("manifest hash of %s is %s, the file's is %s", name, f.SHA256, sha256Hex(b))
		}
	}
	for _, sc := range DefaultSidecars() {
		b, _ := os.ReadFile(filepath.Join(dir, "app.js"+sc.Ext))
		_, blob, ok := m.sidecar("app.js", sc.Ext, int64(len(jsBody)))
		if !ok || blob.Size != int64(len(b)) || blob.SHA256 != sha256Hex(b) {
			t.Errorf("manifest record of app.js%s: %+v (listed %t), want size %d and hash %s", sc.Ext, blob, ok, len(b), sha256Hex(b))
		}
	}
}

func TestServerWithManifestTakesETagsFromIt(t *testing.T) {
	_, root, m := manifestSite(t)
	h := FileServerRoot(root, Config{Manifest: m})
	for _, tc := range []struct{ accept, coding, want string }{
		{"br", "br", etag(etagSum(m.files["app.js"].Sidecars[".br"].SHA256), "br")},
		{"zstd", "zstd", etag(etagSum(m.files["app.js"].Sidecars[".zst"].SHA256), "zstd")},
		{"", "", etag(etagSum(m.files["app.js"].SHA256), "")},
	} {
		w := do(h, "GET", "/app.js", "Accept-Encoding", tc.accept)
		if w.Header().Get("Content-Encoding") != tc.coding || w.Header().Get("ETag") != tc.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, ETag %s; want %q and %s from the manifest",
				tc.accept, w.Header().Get("Content-Encoding"), w.Header().Get("ETag"), tc.coding, tc.want)
		}
	}
	if w := do(h, "GET", "/"+DefaultManifest); w.Code != 404 {
		t.Errorf("GET of the manifest itself: status %d, want 404", w.Code)
	}
}

func TestServerWithManifestIgnoresTamperedSidecar(t *testing.T) {
	dir, root, m := manifestSite(t)
	// Same size, same time, other bytes: only the hash tells.
	p := filepath.Join(dir, "app.js.br")
	b, _ := os.ReadFile(p)
	tampered := compress(t, "br", bytes.ToUpper(jsBody))
	tampered = append(tampered, make([]byte, max(0, len(b)-len(tampered)))...)[:len(b)]
	writeAt(t, dir, "app.js.br", tampered, t0)
	// A sidecar written by hand after the run is not in the manifest.
	writeAt(t, dir, "logo.png.br", compress(t, "br", pseudoRandom(3000)), t0)

	accept := "br, gzip;q=0.5"
	if w := do(FileServerRoot(root, Config{}), "GET", "/app.js", "Accept-Encoding", accept); w.Header().Get("Content-Encoding") != "br" {
		t.Fatalf("without the manifest the tampered br sidecar is not served (Content-Encoding %q): the test proves nothing", w.Header().Get("Content-Encoding"))
	}
	h := FileServerRoot(root, Config{Manifest: m})
	w := do(h, "GET", "/app.js", "Accept-Encoding", accept)
	if got := w.Header().Get("Content-Encoding"); got != "gzip" || !bytes.Equal(decode(t, "gzip", w.Body.Bytes()), jsBody) {
		t.Errorf("with the manifest: Content-Encoding %q; want the tampered br ignored and the gzip sidecar served", got)
	}
	if w := do(h, "GET", "/logo.png", "Accept-Encoding", "br"); w.Header().Get("Content-Encoding") != "" {
		t.Errorf("logo.png.br, not in the manifest, served with Content-Encoding %q", w.Header().Get("Content-Encoding"))
	}
}

// In an embedded tree nothing changes after the build, so the manifest is
// believed without reading the files: the ETag of a file whose bytes no
// longer match it is still the manifest's.
func TestManifestTrustedInImmutableTree(t *testing.T) {
	dir, _, m := manifestSite(t)
	fsys := fstest.MapFS{}
	for _, name := range []string{"app.js", "app.js.br", "app.js.gz", "app.js.zst", DefaultManifest} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		fsys[name] = &fstest.MapFile{Data: b} // zero time, as embed.FS
	}
	fsys["app.js"].Data = bytes.ToUpper(jsBody)
	h := FileServer(fsys, Config{Manifest: m})
	want := etag(etagSum(m.files["app.js"].SHA256), "")
	if got := do(h, "GET", "/app.js").Header().Get("ETag"); got != want {
		t.Errorf("ETag %s, want %s from the manifest, taken on trust", got, want)
	}
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("Content-Encoding"); got != "br" {
		t.Errorf("br sidecar listed in the manifest not served in an immutable tree (Content-Encoding %q)", got)
	}
}

func TestReadManifestRejectsOtherFiles(t *testing.T) {
	for name, content := range map[string]string{
		"not json":      "hello",
		"other version": `{"version": 2, "files": {}}`,
		"bad hash":      `{"version": 1, "files": {"a.js": {"size": 1, "sha256": "xyz"}}}`,
		"bad name":      `{"version": 1, "files": {"../a.js": {"size": 1, "sha256": "` + sha256Hex(nil) + `"}}}`,
	} {
		fsys := fstest.MapFS{"m.json": {Data: []byte(content)}}
		if _, err := ReadManifest(fsys, "m.json"); err == nil {
			t.Errorf("ReadManifest of %s succeeded, want an error", name)
		}
	}
	if _, err := ReadManifest(fstest.MapFS{}, DefaultManifest); err == nil {
		t.Error("ReadManifest of a missing file succeeded")
	}
}

// A manifest lists every file with its hash: it is never served, whether
// FileServer loaded it or not, nor is a sidecar of it, in any directory of
// the tree served. One under another name is hidden once loaded.
func TestManifestNeverServedLoadedOrNot(t *testing.T) {
	dir, root, m := manifestSite(t)
	// A subtree with its own manifest, and sidecars of manifests, as a
	// generator that does not know them might write.
	if err := os.Mkdir(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(dir, DefaultManifest))
	writeAt(t, dir, "docs/"+DefaultManifest, manifest, t0)
	writeAt(t, dir, DefaultManifest+".gz", compress(t, "gzip", manifest), t0)
	writeAt(t, dir, "sums.json", manifest, t0)
	custom, err := ReadManifest(root.FS(), "sums.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]Config{"not loaded": {}, "loaded": {Manifest: m}, "loaded as sums.json": {Manifest: custom}} {
		h := FileServerRoot(root, cfg)
		for _, target := range []string{"/" + DefaultManifest, "/docs/" + DefaultManifest, "/" + DefaultManifest + ".gz"} {
			for _, accept := range []string{"", "gzip, br, zstd"} {
				if w := do(h, "GET", target, "Accept-Encoding", accept); w.Code != 404 {
					t.Errorf("%s: GET %s (Accept-Encoding %q): status %d, %d bytes; want 404", name, target, accept, w.Code, w.Body.Len())
				}
			}
		}
		if w := do(h, "HEAD", "/"+DefaultManifest); w.Code != 404 {
			t.Errorf("%s: HEAD of the manifest: status %d, want 404", name, w.Code)
		}
	}
	if w := do(FileServerRoot(root, Config{Manifest: custom}), "GET", "/sums.json"); w.Code != 404 {
		t.Errorf("manifest loaded from sums.json served under that name: status %d", w.Code)
	}
}

// Generate writes no sidecars for a manifest, its own or another's, since
// FileServer never serves one.
func TestGenerateMakesNoSidecarsForManifests(t *testing.T) {
	dir, _, _ := manifestSite(t)
	manifest, _ := os.ReadFile(filepath.Join(dir, DefaultManifest))
	if err := os.Mkdir(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeAt(t, dir, "docs/"+DefaultManifest, bytes.Repeat(manifest, 4), t0)
	generate(t, dir, GenerateConfig{})
	for _, name := range []string{DefaultManifest, "docs/" + DefaultManifest} {
		for _, sc := range DefaultSidecars() {
			if _, err := os.Stat(filepath.Join(dir, name+sc.Ext)); err == nil {
				t.Errorf("Generate wrote %s%s", name, sc.Ext)
			}
		}
	}
}
