package corpus

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// siteWords are the vocabulary of generated documentation pages.
var siteWords = strings.Fields(`the server sends a file compressed once and kept beside its original
while a client that accepts brotli or zstd gets the smaller of the two when it weighs them equally and
an older client gets gzip or the file itself with a validator that changes whenever its bytes do so that
caches keep one copy per coding and conditional requests answer not modified without sending the body
again configuration fields default to the recommended values and every option states what it costs`)

// Site returns a documentation site the same on every run, shaped like a
// static site generator's output, by slash-separated name: HTML pages
// sharing a template, with a stylesheet, scripts, an SVG icon set and a
// JSON search index of them. scale multiplies the number of pages (scale
// 1: 12 pages).
func Site(scale int) map[string][]byte {
	r := rand.New(rand.NewPCG(36, uint64(scale)))
	site := map[string][]byte{}
	var index strings.Builder
	index.WriteString(`{"docs":[`)
	pages := 12 * scale
	for i := range pages {
		name := fmt.Sprintf("guide/chapter-%02d.html", i)
		site[name] = sitePage(r, i, pages)
		if i > 0 {
			index.WriteString(",")
		}
		fmt.Fprintf(&index, `{"id":%d,"title":%q,"path":%q,"body":%q}`, i, siteSentence(r, 4), name, siteSentence(r, 40))
	}
	index.WriteString("]}")
	site["searchindex.json"] = []byte(index.String())
	site["index.html"] = sitePage(r, -1, pages)
	site["css/theme.css"] = siteCSS(r, 40*scale)
	site["js/book.js"] = siteJS(r, 30*scale)
	site["js/search.js"] = siteJS(r, 12*scale)
	site["icons.svg"] = siteSVG(r, 30)
	return site
}

func siteSentence(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pick(r, siteWords))
	}
	return b.String()
}

func sitePage(r *rand.Rand, page, pages int) []byte {
	var b strings.Builder
	title := "Introduction"
	if page >= 0 {
		title = fmt.Sprintf("Chapter %d: %s", page, siteSentence(r, 3))
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\" class=\"light\">\n<head>\n<meta charset=\"UTF-8\">\n<title>%s</title>\n", title)
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<link rel=\"stylesheet\" href=\"../css/theme.css\">\n</head>\n<body>\n<nav id=\"sidebar\" class=\"sidebar\"><ol class=\"chapter\">\n")
	for i := range pages {
		fmt.Fprintf(&b, "<li class=\"chapter-item expanded\"><a href=\"chapter-%02d.html\"><strong aria-hidden=\"true\">%d.</strong> Chapter %d</a></li>\n", i, i+1, i)
	}
	b.WriteString("</ol></nav>\n<main>\n")
	fmt.Fprintf(&b, "<h1 id=\"top\">%s</h1>\n", title)
	for range 6 + r.IntN(10) {
		fmt.Fprintf(&b, "<p>%s.</p>\n", siteSentence(r, 30+r.IntN(60)))
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "<pre><code class=\"language-go\">h := precompressed.FileServer(fsys, precompressed.Config{CheckInterval: %d * time.Second})\nhttp.Handle(\"/%s/\", h)\n</code></pre>\n", 1+r.IntN(9), pick(r, siteWords))
		}
	}
	b.WriteString("</main>\n<script src=\"../js/book.js\"></script>\n<script src=\"../js/search.js\"></script>\n</body>\n</html>\n")
	return []byte(b.String())
}

func siteCSS(r *rand.Rand, rules int) []byte {
	var b strings.Builder
	props := []string{"margin", "padding", "color", "background-color", "border", "font-size", "line-height", "display", "width"}
	for i := range rules {
		fmt.Fprintf(&b, ".%s-%d, .%s > .item {\n", pick(r, siteWords), i, pick(r, siteWords))
		for range 2 + r.IntN(5) {
			fmt.Fprintf(&b, "    %s: %dpx;\n", pick(r, props), r.IntN(64))
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

func siteJS(r *rand.Rand, funcs int) []byte {
	var b strings.Builder
	b.WriteString("\"use strict\";\n")
	for i := range funcs {
		// Prefixed: some words ("while", "default") are JavaScript keywords.
		a, c := "the_"+pick(r, siteWords), "by_"+pick(r, siteWords)
		fmt.Fprintf(&b, "function %s_%d(%s, options) {\n    const %s = document.querySelectorAll(\".%s\");\n", a, i, c, a, c)
		fmt.Fprintf(&b, "    for (let i = 0; i < %s.length; i++) {\n        %s[i].classList.toggle(\"%s\", options.%s > %d);\n    }\n", a, a, c, c, r.IntN(100))
		fmt.Fprintf(&b, "    return %s.length;\n}\n", a)
	}
	return []byte(b.String())
}

func siteSVG(r *rand.Rand, icons int) []byte {
	var b strings.Builder
	b.WriteString("<svg xmlns=\"http://www.w3.org/2000/svg\" style=\"display:none\">\n")
	for i := range icons {
		fmt.Fprintf(&b, "<symbol id=\"icon-%d\" viewBox=\"0 0 24 24\"><path d=\"M%d %dL%d %dC%d %d %d %d %d %dZ\"/></symbol>\n",
			i, r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24), r.IntN(24))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// StaticTree is the site-like tree the static-file measurements run on
// (precompressed's sidecars and fallback, the report's static bytes):
// Site(4) and, under assets/KIND/, the corpus's real web files (cuts of
// at most 24 KiB from npm packages: CSS, JavaScript, HTML, SVG, Markdown,
// JSON, text), 80 files and about 1.2 MB in all.
func StaticTree() (map[string][]byte, error) {
	tree := Site(4)
	sources, err := Sources()
	if err != nil {
		return nil, err
	}
	for _, src := range sources {
		tree["assets/"+src.Kind+"/"+src.Name] = src.Data
	}
	return tree, nil
}

// WriteTree writes tree, by slash-separated name, under dir, making the
// directories it needs, and returns the files' paths in the order of
// their sorted names.
func WriteTree(dir string, tree map[string][]byte) ([]string, error) {
	var paths []string
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		if err := os.WriteFile(p, tree[name], 0o644); err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
