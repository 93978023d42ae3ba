package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// The generated sources are the same bytes on every run and every Go
// version (testdata/corpus/README.md says so): their hashes are pinned, so
// a change to the generator, or to math/rand/v2's PCG, shows here.
func TestGeneratedIsStable(t *testing.T) {
	pinned := map[string]string{
		"orders.json":         "8fa66979a6b9924c",
		"users-indented.json": "fc53eea69ff7ea6c",
		"issues.json":         "4638a1820a2ae1c5",
		"places.geojson":      "a2abb1e295e1a10e",
		"requests.ndjson":     "8db5c5d3cfbac065",
		"series.json":         "f17eb3a59eef8f65",
		"products.json":       "52e8c3c752cc25b6",
		"services.json":       "b6946f395bcd86a6",
		"embeddings.json":     "6b16a051780c5117",
		"messages.json":       "f3c32f7eea1fd839",
		"help.md":             "efa2c3fde371f76b",
	}
	for _, s := range Generated() {
		sum := sha256.Sum256(s.Data)
		if h := hex.EncodeToString(sum[:8]); h != pinned[s.Name] {
			t.Errorf("%s: sha256 prefix %s, pinned %s", s.Name, h, pinned[s.Name])
		}
	}
}

// Every generated source is valid JSON (one value a line for the logs), but
// the running text, and long enough for two 8 KiB cuts.
func TestGeneratedJSONIsValid(t *testing.T) {
	for _, s := range Generated() {
		if len(s.Data) < generatedSize {
			t.Errorf("%s: %d bytes, want at least %d", s.Name, len(s.Data), generatedSize)
		}
		if s.Kind == "text-i18n" {
			if !utf8.Valid(s.Data) {
				t.Errorf("%s: not valid UTF-8", s.Name)
			}
			continue
		}
		docs := [][]byte{s.Data}
		if s.Kind == "json-logs" {
			docs = bytes.Split(bytes.TrimSuffix(s.Data, []byte("\n")), []byte("\n"))
		}
		for _, d := range docs {
			if !json.Valid(d) {
				t.Fatalf("%s: not valid JSON: %.80q", s.Name, d)
			}
		}
	}
}

// The corpus has every kind of body the size guards are about, each cut at
// every size from two offsets, and reads only the repository.
func TestBodiesCoverEveryKindAndSize(t *testing.T) {
	bodies, err := Bodies()
	if err != nil {
		t.Fatal(err)
	}
	cuts := map[string]map[int]int{}
	for _, b := range bodies {
		if cuts[b.Kind] == nil {
			cuts[b.Kind] = map[int]int{}
		}
		cuts[b.Kind][len(b.Data)]++
	}
	for _, kind := range []string{"css", "css-min", "geojson", "html", "js", "js-min", "json-graphql", "json-logs",
		"json-nested", "json-numbers", "json-records", "markdown", "svg", "text",
		"json-api", "json-config", "json-i18n", "text-i18n"} {
		for _, n := range Sizes {
			if cuts[kind][n] < 2 {
				t.Errorf("%s: %d cuts of %d bytes, want at least 2", kind, cuts[kind][n], n)
			}
		}
	}
}

// Tiles cut each source end to end: every tile is its source's bytes at
// its offset, of the size asked for, right after the tile before it, the
// last ending less than a tile from the source's end; and every kind has
// at least three tiles of each of Sizes, so that the kinds' times in a
// benchmark that serves them in turn are means over several bodies.
func TestTilesCutEachSourceEndToEnd(t *testing.T) {
	src, err := Sources()
	if err != nil {
		t.Fatal(err)
	}
	kinds, err := Kinds()
	if err != nil {
		t.Fatal(err)
	}
	data := map[string][]byte{}
	for _, s := range src {
		data[s.Kind+"/"+s.Name] = s.Data
	}
	for _, n := range Sizes {
		tiles, err := Tiles(n)
		if err != nil {
			t.Fatal(err)
		}
		perKind, next := map[string]int{}, map[string]int{}
		for _, b := range tiles {
			key := b.Kind + "/" + b.Source
			if len(b.Data) != n || b.Offset != next[key] {
				t.Fatalf("%s: %d bytes at %d, want %d at %d", key, len(b.Data), b.Offset, n, next[key])
			}
			if !bytes.Equal(b.Data, data[key][b.Offset:b.Offset+n]) {
				t.Fatalf("%s: the tile at %d is not the source's bytes there", key, b.Offset)
			}
			next[key] += n
			perKind[b.Kind]++
		}
		for _, s := range src {
			if rest := len(s.Data) - next[s.Kind+"/"+s.Name]; rest < 0 || rest >= n {
				t.Errorf("%s/%s: tiles of %d end %d bytes before its end", s.Kind, s.Name, n, rest)
			}
		}
		for _, kind := range kinds {
			if perKind[kind] < 3 {
				t.Errorf("%s: %d tiles of %d bytes, want at least 3", kind, perKind[kind], n)
			}
		}
	}
	if _, err := Tiles(0); err == nil {
		t.Error("Tiles(0) gave no error")
	}
}
