package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sectionsDoc = "# Title\n\nProse kept as is.  \n" +
	"<!-- report:begin a -->\nold a\n<!-- report:end a -->\n" +
	"Between, with trailing spaces   \n\n" +
	"<!-- report:begin b --><!-- report:end b -->\nTail without newline"

func TestRewriteSectionsReplacesOnlyBetweenMarkers(t *testing.T) {
	out, err := rewriteSections("doc.md", []byte(sectionsDoc), []string{"a", "b"}, map[string]string{"a": "new a", "b": "| x |\n|---|\n"})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n\nProse kept as is.  \n" +
		"<!-- report:begin a -->\nnew a\n<!-- report:end a -->\n" +
		"Between, with trailing spaces   \n\n" +
		"<!-- report:begin b -->\n| x |\n|---|\n<!-- report:end b -->\nTail without newline"
	if string(out) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", out, want)
	}
	again, err := rewriteSections("doc.md", out, []string{"a", "b"}, map[string]string{"a": "new a", "b": "| x |\n|---|\n"})
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(out) {
		t.Errorf("a second rewrite with the same content changed the file:\n%s", again)
	}
}

func TestRewriteSectionsLeavesUnfilledSectionsAlone(t *testing.T) {
	out, err := rewriteSections("doc.md", []byte(sectionsDoc), []string{"a"}, map[string]string{"b": "new b"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "<!-- report:begin a -->\nold a\n<!-- report:end a -->") {
		t.Errorf("section a, not filled, changed:\n%s", out)
	}
	if strings.Replace(string(out), "<!-- report:begin b -->\nnew b\n<!-- report:end b -->", "<!-- report:begin b --><!-- report:end b -->", 1) != sectionsDoc {
		t.Errorf("bytes outside section b changed:\n%s", out)
	}
}

func TestRewriteSectionsRejectsBrokenMarkers(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"missing", "<!-- report:begin a -->x<!-- report:end a -->", `doc.md: no <!-- report:begin b --> marker`},
		{"no end", "<!-- report:begin a -->x<!-- report:begin b -->y<!-- report:end b -->", `doc.md: section "b" begins inside section "a"`},
		{"unterminated", "<!-- report:begin a -->x<!-- report:end a --><!-- report:begin b -->", `doc.md: section "b" has no end marker`},
		{"no begin", "<!-- report:begin a -->x<!-- report:end a --><!-- report:end b -->", `doc.md: section "b" ends without its begin marker`},
		{"duplicate", "<!-- report:begin a --><!-- report:end a --><!-- report:begin b --><!-- report:end b --><!-- report:begin a --><!-- report:end a -->", `doc.md: section "a" appears twice`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := rewriteSections("doc.md", []byte(c.doc), []string{"a", "b"}, map[string]string{"a": "new"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want one saying %q", err, c.want)
			}
		})
	}
}

// TestPublishedFilesHoldTheirMarkers checks the repository's own README,
// docs/performance.md and RESULTS.md, so that an edit that drops a marker
// fails here and not at the end of a long run.
func TestPublishedFilesHoldTheirMarkers(t *testing.T) {
	mod, err := moduleDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkPublished(filepath.Dir(mod)); err != nil {
		t.Error(err)
	}
}

func TestWritePublishedLinksChartsFromEachFile(t *testing.T) {
	root := t.TempDir()
	for _, f := range publishedFiles {
		var doc strings.Builder
		for _, s := range f.sections {
			doc.WriteString("<!-- report:begin " + s + " -->\n<!-- report:end " + s + " -->\n")
		}
		p := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fill := map[string]string{"headline": "![c](" + chartsLink + "/x.svg)", "summary": "![c](" + chartsLink + "/x.svg)"}
	if err := writePublished(root, fill); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"README.md":             "![c](benchmarks/charts/x.svg)",
		"docs/performance.md":   "![c](../benchmarks/charts/x.svg)",
		"benchmarks/RESULTS.md": "![c](charts/x.svg)",
	} {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not link the chart as %s:\n%s", file, want, b)
		}
	}
}

func TestWritePublishedRejectsASectionNoFileHolds(t *testing.T) {
	err := writePublished(t.TempDir(), map[string]string{"no-such-section": "x"})
	if err == nil || !strings.Contains(err.Error(), `"no-such-section" is published in no file`) {
		t.Errorf("error = %v, want one naming the section", err)
	}
}
