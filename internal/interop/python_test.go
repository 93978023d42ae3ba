package interop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPythonFindsInterpreterThatImportsJSON(t *testing.T) {
	py := Python(t, "json")
	if got := strings.TrimSpace(py.Run(t, "-c", "import json; print(json.dumps([1]))")); got != "[1]" {
		t.Fatalf("%s printed %q, want [1]", py.Path, got)
	}
}

func TestPythonFindsInterpreterWithDebianModules(t *testing.T) {
	// The first python3 on PATH may not see Debian's python3-* packages;
	// Python must keep looking until one does.
	py := Python(t, "websockets", "brotli", "zstandard")
	out := py.Run(t, "-c", "import brotli, zstandard; print(brotli.decompress(brotli.compress(b'ok')).decode())")
	if strings.TrimSpace(out) != "ok" {
		t.Fatalf("%s round-tripped brotli to %q, want ok", py.Path, out)
	}
}

func TestPythonMissingModuleIsMissingPeer(t *testing.T) {
	Peers(t)
	t.Setenv(RequireEnv, "")
	t.Setenv(PeersEnv, "1")
	r := &recorder{TB: t}
	if p := Python(r, "squeeze_no_such_module"); p != nil {
		t.Fatalf("Python found %s importing a module that does not exist", p.Path)
	}
	if !strings.Contains(r.skipped, "squeeze_no_such_module") {
		t.Fatalf("skip message %q does not name the module", r.skipped)
	}
}

func TestPythonCandidatesWalkPathLikeWhichA(t *testing.T) {
	a, b, empty := t.TempDir(), t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(dir, "python3"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A non-executable python3 is not a candidate, as with which -a.
	if err := os.WriteFile(filepath.Join(empty, "python3"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A link to a file already listed is the same interpreter.
	link := t.TempDir()
	if err := os.Symlink(filepath.Join(a, "python3"), filepath.Join(link, "python3")); err != nil {
		t.Fatal(err)
	}
	pathList := strings.Join([]string{empty, a, link, b, a}, string(os.PathListSeparator))
	got := pythonCandidates("", pathList)
	want := []string{filepath.Join(a, "python3"), filepath.Join(b, "python3")}
	if fi, err := os.Stat(debianPython); err == nil && fi.Mode().Perm()&0o111 != 0 {
		want = append(want, debianPython)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("pythonCandidates = %q, want %q", got, want)
	}
	if got := pythonCandidates("/opt/py/bin/python3", pathList); len(got) != 1 || got[0] != "/opt/py/bin/python3" {
		t.Fatalf("with %s set, candidates = %q, want only the override", PythonEnv, got)
	}
}
