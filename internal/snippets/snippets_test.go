package snippets

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// imports are what every snippet that is not a whole file may use.
var imports = []string{
	"context", "embed", "errors", "fmt", "io", "io/fs", "log", "net/http", "os", "time",
	"github.com/squeezehttp/squeeze/encoding",
	"github.com/squeezehttp/squeeze/encoding/dictionary",
	"github.com/squeezehttp/squeeze/negotiate",
	"github.com/squeezehttp/squeeze/precompressed",
	"github.com/squeezehttp/squeeze/wsdeflate",
}

// given are the parameters of the function that statements run in.
const given = "w http.ResponseWriter, r *http.Request, mux *http.ServeMux, addr string, ctx context.Context"

// snippet is one ```go block: its file, relative to the module, the line
// of its first line of code, and its lines.
type snippet struct {
	file  string
	line  int
	lines []string
}

func (s snippet) String() string { return fmt.Sprintf("%s:%d", s.file, s.line) }

// TestMarkdownGoSnippetsCompile type-checks every ```go block of the
// module's Markdown files, as the package doc describes.
func TestMarkdownGoSnippetsCompile(t *testing.T) {
	root := moduleRoot(t)
	snippets := markdownSnippets(t, root)
	if len(snippets) == 0 {
		t.Fatal("no ```go snippet found in the module's Markdown files")
	}
	imp := exportImporter(t, root, snippets)
	for _, s := range snippets {
		if errs := check(s, imp); len(errs) > 0 {
			t.Errorf("the snippet at %s does not compile:\n\t%s", s, strings.Join(errs, "\n\t"))
		}
	}
	t.Logf("%d snippets checked", len(snippets))
}

// moduleRoot returns the directory of the module's go.mod.
func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Fatal("not in a module")
	}
	return filepath.Dir(gomod)
}

// markdownFiles returns the .md files under root, relative to it with
// forward slashes, leaving out testdata, hidden directories and nested
// modules, whose snippets would import what this module does not have.
func markdownFiles(t *testing.T, root string) []string {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// markdownSnippets returns the ```go blocks of the markdownFiles.
func markdownSnippets(t *testing.T, root string) []snippet {
	var all []snippet
	for _, file := range markdownFiles(t, root) {
		text, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		found, err := fencedGo(file, bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, found...)
	}
	return all
}

// fencedGo returns the ```go blocks of the Markdown text r, from file.
func fencedGo(file string, r io.Reader) ([]snippet, error) {
	var found []snippet
	var cur *snippet
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```go":
			cur = &snippet{file: file, line: n + 1}
		case cur != nil && trimmed == "```":
			found = append(found, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	if cur != nil {
		return found, fmt.Errorf("%s: the ```go block opened before line %d is not closed", cur.file, cur.line)
	}
	return found, sc.Err()
}

// exportImporter returns an importer of the packages snippets may use,
// from the export data the go command builds (and caches) for them.
func exportImporter(t *testing.T, root string, snippets []snippet) types.Importer {
	paths := append([]string(nil), imports...)
	for _, s := range snippets {
		if f, err := parser.ParseFile(token.NewFileSet(), "", strings.Join(s.lines, "\n"), parser.ImportsOnly); err == nil {
			for _, spec := range f.Imports {
				paths = append(paths, strings.Trim(spec.Path.Value, `"`))
			}
		}
	}
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}, paths...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if path, file, ok := strings.Cut(strings.TrimSpace(line), "="); ok && file != "" {
			exports[path] = file
		}
	}
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %q: is it in the imports the package doc lists?", path)
		}
		return os.Open(file)
	})
}

// check type-checks s in the first of its readings that parses (a whole
// file, declarations, statements, declarations then statements) and
// returns the errors, with positions in s's file.
func check(s snippet, imp types.Importer) []string {
	fset := token.NewFileSet()
	f, err := parse(fset, s)
	if err != nil {
		return []string{err.Error()}
	}
	var errs []string
	conf := types.Config{Importer: imp, Error: func(err error) {
		msg := err.Error()
		if strings.Contains(msg, "declared and not used") || strings.Contains(msg, "imported and not used") {
			return // a snippet shows a use, not a whole program
		}
		errs = append(errs, msg)
	}}
	_, _ = conf.Check("snippet", fset, []*ast.File{f}, nil)
	return errs
}

// parse reads s as a whole file, as declarations, as statements, or as
// declarations followed by statements, split at the first line that starts
// at the margin and makes both halves parse. Line directives keep the
// positions those of s's file.
func parse(fset *token.FileSet, s snippet) (*ast.File, error) {
	text := strings.Join(s.lines, "\n")
	if strings.HasPrefix(strings.TrimSpace(text), "package ") {
		return parser.ParseFile(fset, "snippet.go", directive(s, 0)+text, 0)
	}
	var prelude strings.Builder
	prelude.WriteString("package snippet\n\nimport (\n")
	for _, path := range imports {
		fmt.Fprintf(&prelude, "\t%q\n", path)
	}
	prelude.WriteString(")\n\n")
	var firstErr error
	for split := 0; split <= len(s.lines); split++ {
		if split > 0 && split < len(s.lines) && (s.lines[split] == "" || strings.HasPrefix(s.lines[split], " ") || strings.HasPrefix(s.lines[split], "\t") || strings.HasPrefix(s.lines[split], "}")) {
			continue
		}
		src := prelude.String() + directive(s, 0) + strings.Join(s.lines[:split], "\n") + "\n"
		if split < len(s.lines) {
			src += "func _(" + given + ") {\n{\n" + directive(s, split) + strings.Join(s.lines[split:], "\n") + "\n}\n}\n"
		}
		f, err := parser.ParseFile(fset, "snippet.go", src, parser.SkipObjectResolution)
		if err == nil {
			return f, nil
		}
		if firstErr == nil {
			firstErr = err // as statements: most snippets are
		}
	}
	return nil, firstErr
}

// directive is the line directive that makes the next line line i of s.
func directive(s snippet, i int) string {
	return fmt.Sprintf("//line %s:%d:1\n", s.file, s.line+i)
}
