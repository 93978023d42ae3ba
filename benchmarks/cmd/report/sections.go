package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A generated section of a published file lies between two HTML comments,
// which Markdown renders as nothing:
//
//	<!-- report:begin NAME -->
//	...written by the report...
//	<!-- report:end NAME -->
//
// The report replaces what lies between them and leaves every other byte of
// the file as it was, so prose around the numbers is edited by hand and the
// numbers only by the report.
var marker = regexp.MustCompile(`<!-- report:(begin|end) ([a-z0-9-]+) -->`)

// publishedFile is a file the report writes sections into, by its path
// from the repository root, with the sections it must hold.
type publishedFile struct {
	path     string
	sections []string
}

// publishedFiles are where every published figure comes from. A file must
// hold each of its sections' markers once: a marker deleted by an edit is
// an error of the next run, not a section silently no longer updated.
var publishedFiles = []publishedFile{
	{"README.md", []string{"headline"}},
	{"docs/performance.md", []string{"summary", "equal-level", "own-encoders", "frontier", "streams", "route-dictionaries", "websocket", "load", "static", "static-ceiling", "static-bytes"}},
	{"benchmarks/RESULTS.md", []string{"run", "machine", "summary", "published", "load", "static", "static-ceiling", "static-bytes", "scaling", "levels",
		"equal-level", "equal-level-sizes", "own-encoders", "frontier", "middleware", "streams", "route-dictionaries", "websocket", "end"}},
}

// chartsLink stands, in a section's text, for the path from the file the
// section is written into to benchmarks/charts.
const chartsLink = "{charts}"

// span is where one section's content lies in a file.
type span struct{ start, end int }

// findSections returns the content span of every section of doc, or an
// error naming file when a marker is unbalanced, duplicated or nested.
func findSections(file string, doc []byte) (map[string]span, error) {
	spans := map[string]span{}
	open, openAt := "", 0
	for _, m := range marker.FindAllSubmatchIndex(doc, -1) {
		kind, name := string(doc[m[2]:m[3]]), string(doc[m[4]:m[5]])
		switch {
		case kind == "begin" && open != "":
			return nil, fmt.Errorf("report: %s: section %q begins inside section %q", file, name, open)
		case kind == "begin":
			if _, dup := spans[name]; dup {
				return nil, fmt.Errorf("report: %s: section %q appears twice", file, name)
			}
			open, openAt = name, m[1]
		case name != open:
			return nil, fmt.Errorf("report: %s: section %q ends without its begin marker", file, name)
		default:
			spans[name] = span{openAt, m[0]}
			open = ""
		}
	}
	if open != "" {
		return nil, fmt.Errorf("report: %s: section %q has no end marker", file, open)
	}
	return spans, nil
}

// rewriteSections returns doc with the content of each section named in
// fill replaced. Sections of doc that fill does not name, and everything
// outside the markers, are left byte for byte; want lists the sections
// doc must hold, filled or not.
func rewriteSections(file string, doc []byte, want []string, fill map[string]string) ([]byte, error) {
	spans, err := findSections(file, doc)
	if err != nil {
		return nil, err
	}
	for _, name := range want {
		if _, ok := spans[name]; !ok {
			return nil, fmt.Errorf("report: %s: no <!-- report:begin %s --> marker", file, name)
		}
	}
	// Replace from the end so that the earlier spans stay valid.
	var names []string
	for name := range fill {
		if _, ok := spans[name]; ok {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return spans[b].start - spans[a].start })
	out := bytes.Clone(doc)
	for _, name := range names {
		s := spans[name]
		text := "\n" + strings.TrimSpace(fill[name]) + "\n"
		out = slices.Concat(out[:s.start], []byte(text), out[s.end:])
	}
	return out, nil
}

// checkPublished fails when a published file under root lacks one of its
// markers, so that a run does not measure for twenty minutes and then
// find nowhere to write.
func checkPublished(root string) error {
	for _, f := range publishedFiles {
		doc, err := os.ReadFile(filepath.Join(root, f.path))
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if _, err := rewriteSections(f.path, doc, f.sections, nil); err != nil {
			return err
		}
	}
	return nil
}

// writePublished writes the sections filled so far into the published
// files under root; a section that did not run keeps what it had.
func writePublished(root string, fill map[string]string) error {
	for name := range fill {
		if !slices.ContainsFunc(publishedFiles, func(f publishedFile) bool { return slices.Contains(f.sections, name) }) {
			return fmt.Errorf("report: section %q is published in no file", name)
		}
	}
	for _, f := range publishedFiles {
		p := filepath.Join(root, f.path)
		doc, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		rel, err := filepath.Rel(filepath.Dir(p), filepath.Join(root, "benchmarks", "charts"))
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		local := map[string]string{}
		for _, name := range f.sections {
			if text, ok := fill[name]; ok {
				local[name] = strings.ReplaceAll(text, chartsLink, filepath.ToSlash(rel))
			}
		}
		out, err := rewriteSections(f.path, doc, f.sections, local)
		if err != nil {
			return err
		}
		if !bytes.Equal(out, doc) {
			if err := os.WriteFile(p, out, 0o644); err != nil {
				return fmt.Errorf("report: %w", err)
			}
		}
	}
	return nil
}
