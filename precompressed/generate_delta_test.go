package precompressed

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/dcztest"
)

// previousOf is a GenerateConfig.Deltas for builds named app.N.js: build
// 2's previous version is build 1.
func previousOf(name string) []string {
	if name == "app.2.js" {
		return []string{"app.1.js", "app.0.js"} // build 0 does not exist
	}
	return nil
}

// deltaTree writes builds 1 and 2 of app.js and returns the directory and
// their bytes.
func deltaTree(t *testing.T) (dir string, v1, v2 []byte) {
	t.Helper()
	v1, v2 = buildScript(1, 40<<10), buildScript(2, 40<<10)
	return genTree(t, map[string][]byte{"app.1.js": v1, "app.2.js": v2}), v1, v2
}

func TestGenerateWritesDeltaAgainstEachPreviousVersion(t *testing.T) {
	t.Parallel()
	dir, v1, v2 := deltaTree(t)
	rep := generate(t, dir, GenerateConfig{Deltas: previousOf})
	name := DeltaName("app.2.js", sha256.Sum256(v1))
	delta, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("no delta of build 2 against build 1: %v", err)
	}
	got, err := dcztest.Decode(delta, v1, 1<<20)
	if err != nil || !bytes.Equal(got, v2) {
		t.Fatalf("delta decodes to %d bytes, %v; want build 2's %d", len(got), err, len(v2))
	}
	if rep.Written != 3*2+1 || rep.SidecarBytes["dcz"] != int64(len(delta)) {
		t.Errorf("Report: %d written, %d dcz bytes; want 7 (3 sidecars each and the delta) and %d", rep.Written, rep.SidecarBytes["dcz"], len(delta))
	}
	st, err := os.Stat(filepath.Join(dir, name))
	if err != nil || !st.ModTime().Equal(t0) {
		t.Errorf("delta's modification time %v, %v; want its original's %v", st.ModTime(), err, t0)
	}
	if zst := len(compress(t, "zstd", v2)); len(delta)*4 > zst {
		t.Errorf("delta is %d bytes, not under a quarter of zstd's %d", len(delta), zst)
	}
}

func TestSecondRunLeavesUpToDateDeltaAlone(t *testing.T) {
	t.Parallel()
	for _, manifest := range []string{"", DefaultManifest} {
		dir, v1, _ := deltaTree(t)
		cfg := GenerateConfig{Deltas: previousOf, Manifest: manifest}
		generate(t, dir, cfg)
		before := listTree(t, dir)
		rep := generate(t, dir, cfg)
		if rep.Written != 0 || rep.UpToDate != 7 || rep.Files != 2 {
			t.Errorf("manifest %q: second run wrote %d, found %d up to date, %d originals; want 0, 7 (the delta too), 2 (the delta is no original)", manifest, rep.Written, rep.UpToDate, rep.Files)
		}
		if after := listTree(t, dir); !slices.Equal(before, after) {
			t.Errorf("manifest %q: second run changed the tree:\n%v\n%v", manifest, before, after)
		}
		if manifest == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, manifest))
		if err != nil {
			t.Fatal(err)
		}
		var mj manifestJSON
		if err := json.Unmarshal(b, &mj); err != nil {
			t.Fatal(err)
		}
		ext := strings.TrimPrefix(DeltaName("app.2.js", sha256.Sum256(v1)), "app.2.js")
		if blob, ok := mj.Files["app.2.js"].Sidecars[ext]; !ok || !validSum(blob.SHA256) {
			t.Errorf("manifest lists build 2's sidecars as %v, want the delta under %q with its hash", mj.Files["app.2.js"].Sidecars, ext)
		}
	}
}

func TestChangedPreviousVersionGetsNewDelta(t *testing.T) {
	t.Parallel()
	dir, v1, _ := deltaTree(t)
	generate(t, dir, GenerateConfig{Deltas: previousOf})
	v1b := append(bytes.Clone(v1), "export const patched = true;\n"...)
	writeAt(t, dir, "app.1.js", v1b, t0)
	generate(t, dir, GenerateConfig{Deltas: previousOf})
	if _, err := os.Stat(filepath.Join(dir, DeltaName("app.2.js", sha256.Sum256(v1b)))); err != nil {
		t.Errorf("no delta against the changed build 1: %v", err)
	}
}

func TestDeltaOrphansDeletedWhenDictionaryOrOriginalGone(t *testing.T) {
	t.Parallel()
	dir, v1, v2 := deltaTree(t)
	generate(t, dir, GenerateConfig{Deltas: previousOf})
	byV1 := DeltaName("app.2.js", sha256.Sum256(v1))
	// A delta made by hand with GenerateDelta, of build 1 against 2.
	byV2, err := GenerateDelta(dir, DeltaConfig{Name: "app.1.js", Previous: "app.2.js", Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	exists := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }

	// Without Deltas, only deltas whose original is gone count.
	generate(t, dir, GenerateConfig{DeleteOrphans: true})
	if !exists(byV1) || !exists(byV2) {
		t.Fatalf("without Deltas, a delta beside its original was deleted (%s: %v, %s: %v)", byV1, exists(byV1), byV2, exists(byV2))
	}
	// Without DeleteOrphans, nothing is deleted when the dictionary goes.
	if err := os.Remove(filepath.Join(dir, "app.1.js")); err != nil {
		t.Fatal(err)
	}
	generate(t, dir, GenerateConfig{Deltas: previousOf})
	if !exists(byV1) {
		t.Fatal("a delta was deleted without DeleteOrphans")
	}
	rep := generate(t, dir, GenerateConfig{Deltas: previousOf, DeleteOrphans: true})
	if exists(byV1) {
		t.Error("the delta against deleted build 1 survived DeleteOrphans")
	}
	if exists(byV2) {
		t.Error("the delta of deleted build 1 survived DeleteOrphans")
	}
	if rep.Deleted < 2+3 {
		t.Errorf("Report.Deleted = %d, want build 1's three sidecars and both deltas", rep.Deleted)
	}
	if !exists("app.2.js.zst") || !bytes.Equal(readFile(t, dir, "app.2.js"), v2) {
		t.Error("DeleteOrphans touched build 2 or its sidecars")
	}
}

func TestGeneratedDeltaServedToClientWithDictionary(t *testing.T) {
	t.Parallel()
	dir, v1, v2 := deltaTree(t)
	generate(t, dir, GenerateConfig{Deltas: previousOf, Manifest: DefaultManifest})
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	h := FileServerRoot(root, Config{Dictionary: &DictionaryConfig{}})
	w := dictRequest(h, "/app.2.js", v1)
	if ce := w.Result().Header.Get("Content-Encoding"); ce != "dcz" {
		t.Fatalf("Content-Encoding %q, want dcz from the generated delta", ce)
	}
	got, err := dcztest.Decode(w.Body.Bytes(), v1, 1<<20)
	if err != nil || !bytes.Equal(got, v2) {
		t.Fatalf("body decodes to %d bytes, %v; want build 2", len(got), err)
	}
}

func readFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
