package interop

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// PythonEnv names an interpreter to use instead of searching for one.
const PythonEnv = "SQUEEZE_PYTHON"

// debianPython is Debian's own interpreter, the one that imports Debian's
// python3-* packages, tried last in case PATH does not reach it.
const debianPython = "/usr/bin/python3"

// probeTimeout bounds one interpreter's import check.
const probeTimeout = 15 * time.Second

// pythonModules maps a Python module to the Debian package that provides it.
var pythonModules = map[string]string{
	"websockets": "python3-websockets",
	"brotli":     "python3-brotli",
	"zstandard":  "python3-zstandard",
}

// Python returns an interpreter that imports every one of modules. Debian's
// python3-* packages are importable only by Debian's interpreter, and the
// first python3 on PATH may be another (pyenv, a virtualenv), so it tries
// $SQUEEZE_PYTHON alone if set, else each python3 on PATH in order and then
// Debian's. The answer is cached per set of modules.
func Python(t testing.TB, modules ...string) *Peer {
	t.Helper()
	Peers(t)
	path, err := findPython(modules)
	if err != "" {
		Missing(t, "python3 with "+strings.Join(modules, ", "), err, pythonHint(modules))
		return nil
	}
	return &Peer{Name: "python3", Path: path}
}

// pythonProbe is the cached outcome of searching for one set of modules.
type pythonProbe struct {
	once sync.Once
	path string
	err  string
}

var (
	pythonMu     sync.Mutex
	pythonProbes = map[string]*pythonProbe{}
)

// findPython returns the first candidate interpreter that imports modules,
// or why none does.
func findPython(modules []string) (path, why string) {
	sorted := slices.Clone(modules)
	slices.Sort(sorted)
	key := strings.Join(sorted, ",")
	pythonMu.Lock()
	p, ok := pythonProbes[key]
	if !ok {
		p = new(pythonProbe)
		pythonProbes[key] = p
	}
	pythonMu.Unlock()
	p.once.Do(func() {
		candidates := pythonCandidates(os.Getenv(PythonEnv), os.Getenv("PATH"))
		if len(candidates) == 0 {
			p.err = "no python3 on PATH"
			return
		}
		for _, c := range candidates {
			if imports(c, modules) {
				p.path = c
				return
			}
		}
		p.err = "none of " + strings.Join(candidates, ", ") + " imports " + strings.Join(modules, ", ")
	})
	return p.path, p.err
}

// pythonCandidates lists the interpreters to try, in order: override alone if
// set, else every executable python3 on pathList (as `which -a` would list
// them), then Debian's, each file once (/bin is often /usr/bin).
func pythonCandidates(override, pathList string) []string {
	if override != "" {
		return []string{override}
	}
	var out []string
	var seen []os.FileInfo
	add := func(p string) {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return
		}
		for _, s := range seen {
			if os.SameFile(s, fi) {
				return
			}
		}
		seen = append(seen, fi)
		out = append(out, p)
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			dir = "."
		}
		add(filepath.Join(dir, "python3"))
	}
	add(debianPython)
	return out
}

// imports reports whether the interpreter at path imports all of modules.
func imports(path string, modules []string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	script := "import sys"
	for _, m := range modules {
		script += "; import " + m
	}
	p := &Peer{Name: path, Path: path}
	_, err := p.run(ctx, []string{"-c", script})
	return err == nil
}

// pythonHint tells how to install the Debian packages behind modules.
func pythonHint(modules []string) string {
	var pkgs []string
	for _, m := range modules {
		if pkg, ok := pythonModules[m]; ok {
			pkgs = append(pkgs, pkg)
		}
	}
	if len(pkgs) == 0 {
		return "a python3 that imports them, named by " + PythonEnv
	}
	return installHint(strings.Join(pkgs, " ")) + ", or name an interpreter in " + PythonEnv
}
