// Package corpus gives tests and benchmarks the repository's corpus of web
// bodies: the files under testdata/corpus (one directory per kind of body,
// cut from npm packages; its README says which) and JSON of five shapes made
// by a deterministic generator, each cut at 256 B, 1, 2, 4 and 8 KiB from
// two offsets. It reads only the repository, so nothing that uses it skips
// on a fresh clone.
package corpus

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Sizes are the lengths the corpus's sources are cut to.
var Sizes = []int{256, 1 << 10, 2 << 10, 4 << 10, 8 << 10}

// Body is one cut of one source.
type Body struct {
	Kind   string // kind of body: "json-records", "js-min", "html", ...
	Source string // file (or generator) it is cut from
	Offset int    // where in the source the cut starts
	Data   []byte
}

// Name identifies a body in test output: kind/source/size@offset.
func (b Body) Name() string {
	return fmt.Sprintf("%s/%s/%d@%d", b.Kind, b.Source, len(b.Data), b.Offset)
}

// Source is one whole source of the corpus, before cutting.
type Source struct {
	Kind, Name string
	Data       []byte
}

var (
	loadOnce sync.Once
	sources  []Source
	loadErr  error
)

// Sources returns the corpus's files and generated JSON, sorted by kind and
// name. Callers must not modify the data.
func Sources() ([]Source, error) {
	loadOnce.Do(func() { sources, loadErr = load() })
	return sources, loadErr
}

// Bodies returns every cut of every source: for each size in Sizes, one cut
// at the start of the source and one at an offset that differs per size and
// per source, so that cuts of different sizes do not all begin alike.
func Bodies() ([]Body, error) {
	src, err := Sources()
	if err != nil {
		return nil, err
	}
	var out []Body
	for i, s := range src {
		for j, n := range Sizes {
			if n > len(s.Data) {
				continue
			}
			out = append(out, Body{Kind: s.Kind, Source: s.Name, Data: s.Data[:n]})
			// An offset in the last three quarters of the room left, spread
			// by size and source.
			room := len(s.Data) - n
			off := room/4 + (room*3/4)*((i*7+j*3)%11)/10
			if off > 0 {
				out = append(out, Body{Kind: s.Kind, Source: s.Name, Offset: off, Data: s.Data[off : off+n]})
			}
		}
	}
	return out, nil
}

// Tiles returns every source cut end to end into bodies of n bytes (the
// rest of a source, shorter than n, left out), in the order of Sources.
// Unlike Bodies, it gives each kind many bodies of a size that do not
// overlap, for benchmarks that must not serve one body twice before serving
// the others.
func Tiles(n int) ([]Body, error) {
	if n <= 0 {
		return nil, fmt.Errorf("corpus: tiles of %d bytes", n)
	}
	src, err := Sources()
	if err != nil {
		return nil, err
	}
	var out []Body
	for _, s := range src {
		for off := 0; off+n <= len(s.Data); off += n {
			out = append(out, Body{Kind: s.Kind, Source: s.Name, Offset: off, Data: s.Data[off : off+n]})
		}
	}
	return out, nil
}

// Kinds returns the kinds of body, sorted.
func Kinds() ([]string, error) {
	src, err := Sources()
	if err != nil {
		return nil, err
	}
	var kinds []string
	for _, s := range src {
		if !slices.Contains(kinds, s.Kind) {
			kinds = append(kinds, s.Kind)
		}
	}
	return kinds, nil
}

// Dir returns testdata/corpus of the repository, found by walking up from
// the working directory, which is a package's directory in tests of this
// module and of the benchmarks module.
func Dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "testdata", "corpus")
		if _, err := os.Stat(filepath.Join(c, "README.md")); err == nil {
			return c, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("corpus: no testdata/corpus above %s", wd)
		}
	}
}

func load() ([]Source, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var out []Source
	for _, kind := range entries {
		if !kind.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, kind.Name()))
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(dir, kind.Name(), f.Name()))
			if err != nil {
				return nil, fmt.Errorf("corpus: %w", err)
			}
			out = append(out, Source{Kind: kind.Name(), Name: f.Name(), Data: data})
		}
	}
	out = append(out, Generated()...)
	slices.SortFunc(out, func(a, b Source) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}
