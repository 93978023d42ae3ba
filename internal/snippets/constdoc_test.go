package snippets

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// exportedConsts calls f with every exported constant of the module's
// public packages, its value expression (nil when repeated from the line
// before) and its doc comment, from the non-test files.
func exportedConsts(t *testing.T, f func(pkg, name string, value ast.Expr, doc string)) {
	t.Helper()
	root := moduleRoot(t)
	for pkg, dir := range packageDirs {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range parsed.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.CONST {
					continue
				}
				for _, spec := range gen.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !name.IsExported() {
							continue
						}
						var value ast.Expr
						if i < len(vs.Values) {
							value = vs.Values[i]
						}
						doc := vs.Doc.Text()
						if len(gen.Specs) == 1 {
							doc = gen.Doc.Text()
						}
						f(pkg, name.Name, value, doc)
					}
				}
			}
		}
	}
}

// TestGoDocShowsConstantValues: go doc prints a constant's declaration as
// written, so an exported constant must not be written with unexported
// names (MessageType(opText), len(dcbMagic) + 32 told the reader
// nothing): only literals, exported names and builtins.
func TestGoDocShowsConstantValues(t *testing.T) {
	builtins := map[string]bool{"iota": true, "true": true, "false": true, "len": true}
	exportedConsts(t, func(pkg, name string, value ast.Expr, _ string) {
		if value == nil {
			return
		}
		ast.Inspect(value, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				return false // a package's exported name: pkg.Name
			case *ast.Ident:
				if !n.IsExported() && !builtins[n.Name] {
					t.Errorf("%s.%s is written with %s, which go doc shows and no reader can look up: write its value", pkg, name, n.Name)
				}
			}
			return true
		})
	})
}

// TestDefaultMinSizesSayWhyTheyDiffer: encoding.DefaultMinSize and
// precompressed.DefaultMinSize share a name and differ in value; each
// says why, naming the other.
func TestDefaultMinSizesSayWhyTheyDiffer(t *testing.T) {
	docs := map[string]string{}
	exportedConsts(t, func(pkg, name string, _ ast.Expr, doc string) {
		if name == "DefaultMinSize" {
			docs[pkg] = doc
		}
	})
	for pkg, other := range map[string]string{"encoding": "precompressed", "precompressed": "encoding"} {
		if !strings.Contains(docs[pkg], other+".DefaultMinSize") || !strings.Contains(docs[pkg], "purpose") {
			t.Errorf("%s.DefaultMinSize's doc does not say why it differs from %s.DefaultMinSize: %q", pkg, other, docs[pkg])
		}
	}
}
