package precompressed

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// zstdWindow returns the window a zstd frame asks its decoder for, from
// its header (RFC 8878 §3.1.1.1): the content size for a single-segment
// frame, else what the Window_Descriptor says.
func zstdWindow(t *testing.T, frame []byte) uint64 {
	t.Helper()
	if len(frame) < 6 || binary.LittleEndian.Uint32(frame) != 0xFD2FB528 {
		t.Fatalf("not a zstd frame: % x", frame[:min(len(frame), 6)])
	}
	fhd := frame[4]
	if fhd&0x20 == 0 { // Single_Segment_Flag clear: a Window_Descriptor follows
		wd := frame[5]
		base := uint64(1) << (10 + wd>>3)
		return base + base/8*uint64(wd&7)
	}
	// Single segment: the window is the Frame_Content_Size, whose field
	// size Frame_Content_Size_Flag gives (RFC 8878 §3.1.1.1.4).
	fcs := frame[5+dictIDSize(fhd&3):]
	switch fhd >> 6 {
	case 0:
		return uint64(fcs[0])
	case 1:
		return uint64(binary.LittleEndian.Uint16(fcs)) + 256
	case 2:
		return uint64(binary.LittleEndian.Uint32(fcs))
	}
	return binary.LittleEndian.Uint64(fcs)
}

func dictIDSize(flag byte) int { return [4]int{0, 1, 2, 4}[flag] }

func TestZstdSidecarWindowWithinRFC9659(t *testing.T) {
	big := bytes.Repeat(jsBody, (9<<20)/len(jsBody)+1) // more than the 8 MB cap
	// The largest file the own encoder takes whole, its window the file.
	edge := big[:8<<20]
	dir := genTree(t, map[string][]byte{"small.js": jsBody, "big.js": big, "edge.js": edge})
	generate(t, dir, GenerateConfig{Sidecars: []Sidecar{{"zstd", ".zst"}}})
	for name, n := range map[string]int{"small.js": len(jsBody), "big.js": len(big), "edge.js": len(edge)} {
		b, err := os.ReadFile(filepath.Join(dir, name+".zst"))
		if err != nil {
			t.Fatal(err)
		}
		w := zstdWindow(t, b)
		if w > 8<<20 {
			t.Errorf("%s.zst asks for a %d-byte window, more than RFC 9659 §3's 8 MB", name, w)
		}
		if n <= 8<<20 && w > uint64(n) {
			t.Errorf("%s.zst asks for a %d-byte window for %d bytes of content", name, w, n)
		}
		if got := decode(t, "zstd", b); len(got) != n {
			t.Errorf("%s.zst decodes to %d bytes, want %d", name, len(got), n)
		}
	}
}

// brotliLGWin reads the window size from a brotli stream header
// (RFC 7932 §9.1, WBITS).
func brotliLGWin(b []byte) int {
	bits := uint16(b[0]) | uint16(b[1])<<8
	if bits&1 == 0 {
		return 16
	}
	if n := int(bits>>1) & 7; n != 0 {
		return 17 + n
	}
	if m := int(bits>>4) & 7; m != 0 {
		return 8 + m
	}
	return 17
}

func TestBrotliSidecarWindowFitsFile(t *testing.T) {
	medium := bytes.Repeat(jsBody, 100) // about 200 KB
	dir := genTree(t, map[string][]byte{"small.js": jsBody, "medium.js": medium})
	generate(t, dir, GenerateConfig{Sidecars: []Sidecar{{"br", ".br"}}})
	for name, n := range map[string]int{"small.js": len(jsBody), "medium.js": len(medium)} {
		b, err := os.ReadFile(filepath.Join(dir, name+".br"))
		if err != nil {
			t.Fatal(err)
		}
		lgwin := brotliLGWin(b)
		// RFC 7932 §9.1: a window of 2^lgwin holds 2^lgwin-16 bytes.
		if lgwin > 24 || (1<<lgwin)-16 < n || (1<<(lgwin-1))-16 >= n {
			t.Errorf("%s.br has lgwin %d for %d bytes; want the smallest window that holds the file, at most 24", name, lgwin, n)
		}
	}
}

// Python's zstandard and brotli modules, bindings to the reference C
// libraries, decode every sidecar to its original: an independent check of
// the Go encoders' output.
func TestGeneratedSidecarsDecodeWithPython(t *testing.T) {
	py := interop.Python(t, "zstandard", "brotli")
	dir := genTree(t, map[string][]byte{"app.js": jsBody, "css/site.css": cssBody, "data.json": variedText(300 << 10)})
	generate(t, dir, GenerateConfig{})
	const script = `
import brotli, gzip, sys, zstandard
ok = 0
for name in sys.argv[2:]:
    orig = open(sys.argv[1] + "/" + name, "rb").read()
    for ext, dec in ((".br", brotli.decompress), (".gz", gzip.decompress),
                     (".zst", lambda b: zstandard.ZstdDecompressor().decompress(b))):
        got = dec(open(sys.argv[1] + "/" + name + ext, "rb").read())
        if got != orig:
            sys.exit("%s%s decodes to %d bytes that differ from the original's %d" % (name, ext, len(got), len(orig)))
        ok += 1
print(ok)
`
	out := py.Run(t, "-c", script, dir, "app.js", "css/site.css", "data.json")
	if strings.TrimSpace(out) != "9" {
		t.Errorf("python decoded %q sidecars, want 9", strings.TrimSpace(out))
	}
}
