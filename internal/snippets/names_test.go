package snippets

import (
	"bytes"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// packageDirs maps the names by which the Markdown files refer to the
// module's packages to their directories.
var packageDirs = map[string]string{
	"encoding":      "encoding",
	"dictionary":    "encoding/dictionary",
	"negotiate":     "negotiate",
	"precompressed": "precompressed",
	"wsdeflate":     "wsdeflate",
}

// qualifiedName is a name of one of those packages in prose, with the
// field or method that may follow it: precompressed.Config.Dictionary.
var qualifiedName = regexp.MustCompile(`\b(encoding|dictionary|negotiate|precompressed|wsdeflate)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)

// TestMarkdownNamesExist checks that every name of the module's packages
// that the Markdown files mention in prose (encoding.Config.Jitter,
// wsdeflate.TestBombMemoryStaysUnderReadLimit) still exists: a declared
// name, with its field or method, or a test function of that package.
func TestMarkdownNamesExist(t *testing.T) {
	root := moduleRoot(t)
	snippets := markdownSnippets(t, root)
	imp := exportImporter(t, root, snippets)
	checked := 0
	for _, file := range markdownFiles(t, root) {
		text, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			for _, m := range qualifiedName.FindAllStringSubmatch(line, -1) {
				checked++
				if !nameExists(t, root, imp, m[1], m[2], m[3]) {
					t.Errorf("%s:%d: %s names nothing in the module", file, i+1, m[0])
				}
			}
		}
	}
	t.Logf("%d names checked", checked)
}

// nameExists reports whether pkg declares name, with member when it is not
// empty, or has a test function called name.
func nameExists(t *testing.T, root string, imp types.Importer, pkg, name, member string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, prefix) {
			return hasTestFunc(t, filepath.Join(root, packageDirs[pkg]), name)
		}
	}
	p, err := imp.Import("github.com/squeezehttp/squeeze/" + packageDirs[pkg])
	if err != nil {
		t.Fatal(err)
	}
	obj := p.Scope().Lookup(name)
	if obj == nil || member == "" {
		return obj != nil
	}
	// A member of a type, or of what a function returns: a method of
	// Codec for encoding.Gzip.
	typ := obj.Type()
	if sig, ok := typ.(*types.Signature); ok && sig.Results().Len() == 1 {
		typ = sig.Results().At(0).Type()
	}
	found, _, _ := types.LookupFieldOrMethod(typ, true, p, member)
	if found == nil {
		// A method value or field of a pointer to the type.
		found, _, _ = types.LookupFieldOrMethod(types.NewPointer(typ), true, p, member)
	}
	return found != nil
}

// hasTestFunc reports whether a _test.go file of dir declares func name.
func hasTestFunc(t *testing.T, dir, name string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("func "+name+"(")) {
			return true
		}
	}
	return false
}
