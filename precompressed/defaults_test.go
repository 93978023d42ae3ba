package precompressed

import (
	"testing"
	"testing/fstest"
)

// TestZeroConfigIsTheDocumentedDefaults enforces the defaults Config
// documents for zero fields: FallbackCacheBytes 32 MiB, files above a
// quarter of it served uncompressed, FallbackMinSize 512 bytes, and
// recompression after 4 responses (off when negative).
func TestZeroConfigIsTheDocumentedDefaults(t *testing.T) {
	s := FileServer(fstest.MapFS{}, Config{}).(*server)
	if s.cache == nil || s.maxSize != (32<<20)/4 {
		t.Errorf("zero Config: largest file compressed on the fly %d bytes (cache %v); want a quarter of 32 MiB", s.maxSize, s.cache != nil)
	}
	if s.minSize != 512 {
		t.Errorf("zero Config: FallbackMinSize %d, want 512", s.minSize)
	}
	if s.recompressAfter != 4 {
		t.Errorf("zero Config: files recompressed after %d responses, want 4", s.recompressAfter)
	}
	if off := FileServer(fstest.MapFS{}, Config{FallbackRecompressAfter: -1}).(*server); off.recompressAfter != 0 {
		t.Errorf("FallbackRecompressAfter -1: recompressed after %d responses, want never (0)", off.recompressAfter)
	}
}

// TestZeroGenerateConfigIsTheDocumentedDefaults enforces what
// GenerateConfig documents for a zero value: originals of 512 bytes or
// more, and sidecars kept only when at least 5 % smaller.
func TestZeroGenerateConfigIsTheDocumentedDefaults(t *testing.T) {
	g, err := newGenerator(t.TempDir(), GenerateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.root.Close()
	if g.minSize != 512 {
		t.Errorf("zero GenerateConfig: MinSize %d, want 512", g.minSize)
	}
	for _, tc := range []struct {
		n, size int64
		keep    bool
	}{{95, 100, true}, {96, 100, false}, {9500, 10000, true}, {9501, 10000, false}} {
		if got := g.worthKeeping(tc.n, tc.size); got != tc.keep {
			t.Errorf("zero GenerateConfig: a %d-byte sidecar of a %d-byte original kept: %t, want %t (5 %% saving)", tc.n, tc.size, got, tc.keep)
		}
	}
}
