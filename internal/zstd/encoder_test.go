package zstd

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/enctest"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// unzstd decodes a zstd frame with klauspost's decoder, which shares no
// code with the encoder, limited to the memory the frame says it needs.
func unzstd(tb testing.TB, frame []byte) []byte {
	tb.Helper()
	return unzstdWindow(tb, frame, MaxBody)
}

// unzstdWindow is unzstd for frames whose window is at most window bytes.
func unzstdWindow(tb testing.TB, frame []byte, window uint64) []byte {
	tb.Helper()
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(window))
	if err != nil {
		tb.Fatal(err)
	}
	defer d.Close()
	got, err := d.DecodeAll(frame, nil)
	if err != nil {
		tb.Fatalf("klauspost/compress/zstd: %v", err)
	}
	return got
}

// zstdShapes adds to wholeShapes the bodies that reach each section type
// of the format: literals raw, as a run, in one and in four Huffman
// streams with each header size, no sequences and many (RFC 8878
// §3.1.1.3).
func zstdShapes() map[string][]byte {
	shapes := enctest.Shapes()
	r := rand.New(rand.NewPCG(3, 4))
	ascii := func(n, alphabet int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(' ' + r.IntN(alphabet))
		}
		return b
	}
	shapes["literals 31"] = ascii(31, 40)
	shapes["literals 32"] = ascii(32, 40)
	shapes["literals 1023"] = ascii(1023, 40)
	shapes["literals 1024"] = ascii(1024, 40)
	shapes["literals 16383"] = ascii(16383, 40)
	shapes["literals 16384"] = ascii(16384, 40)
	shapes["literals 100k"] = ascii(100<<10, 90)
	shapes["skewed"] = bytes.Map(func(c rune) rune { // one literal far more common than the rest: long codes
		if c%7 != 0 {
			return 'e'
		}
		return c
	}, ascii(20000, 95))
	shapes["symbol 128"] = append(ascii(3000, 60), 128, 128, 0)
	shapes["symbol 129"] = append(ascii(3000, 60), 129)
	// Weight 0 on most literals up to 226, the last two weights among
	// them: a built weights table gives 0 more than half its states, from
	// some of which a state change takes no bits; a decoder finds the end
	// of the weights only where the last one does take a bit, as the
	// first state of each symbol, where start begins, does.
	shapes["weights ending on zeros"] = append(ascii(300, 30), 0xe2, 0x80, 0x94)
	shapes["two symbols"] = bytes.Repeat([]byte("ab"), 20)
	// Few symbols: direct weights are shorter than FSE-compressed ones.
	shapes["small alphabet"] = bytes.Map(func(c rune) rune { return c % 8 }, ascii(1000, 95))
	// Too short to match: seven literals alike.
	shapes["run of one literal"] = []byte("zzzzzzz")
	// After a run of 66 000 literals, a match of 20 KB from 90 000 bytes
	// back, and more after it: 16 + 14 + 16 extra bits in one sequence,
	// more than fit beside the states before a flush. The unit repeats
	// so that the matcher, skipping faster and faster through the
	// literals, still lands on it.
	unit := ascii(4096, 90)
	shapes["far literals"] = slices.Concat(bytes.Repeat(unit, 5), shapes["random"][:66000],
		bytes.Repeat(unit, 5), shapes["random"][:4000])
	shapes["json 128k"] = bytes.Repeat(shapes["json"], 7)[:MaxBody]
	shapes["long literal runs"] = slices.Concat(ascii(70000, 30), ascii(100, 30), shapes["json"][:8000])
	return shapes
}

// TestZstdEncoderRoundTrip has klauspost's decoder read back every shape
// through one encoder reused in both orders, so that each body follows
// others of other sizes (the match tables are invalidated, not cleared).
func TestZstdEncoderRoundTrip(t *testing.T) {
	names, shapes := sortedShapes(t)
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	var e Encoder
	for _, order := range [][]string{names, reversed} {
		for _, name := range order {
			src := shapes[name]
			frame := e.Append([]byte("prefix"), src)
			if !bytes.HasPrefix(frame, []byte("prefix")) {
				t.Fatalf("%s: dst's bytes were overwritten", name)
			}
			if got := unzstd(t, frame[6:]); !bytes.Equal(got, src) {
				t.Fatalf("%s: decoded %d bytes differ from the %d encoded", name, len(got), len(src))
			}
		}
	}
}

// sortedShapes returns zstdShapes and the corpus cuts, by name, in name
// order, each cut to MaxBody.
func sortedShapes(t *testing.T) ([]string, map[string][]byte) {
	shapes := zstdShapes()
	_, cuts := enctest.CorpusCuts(t)
	for name, b := range cuts {
		shapes["corpus "+name] = b
	}
	for name, b := range shapes {
		shapes[name] = b[:min(len(b), MaxBody)]
	}
	return slices.Sorted(func(yield func(string) bool) {
		for n := range shapes {
			if !yield(n) {
				return
			}
		}
	}), shapes
}

// The reference implementation, libzstd through Python's zstandard module,
// decodes every shape: the frames are not only what klauspost's decoder
// accepts.
func TestZstdEncoderDecodedByLibzstd(t *testing.T) {
	py := interop.Python(t, "zstandard")
	names, shapes := sortedShapes(t)
	dir := t.TempDir()
	var e Encoder
	var want strings.Builder
	for i, name := range names {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), e.Append(nil, shapes[name]), 0o600); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(shapes[name])
		fmt.Fprintf(&want, "%d %s\n", i, hex.EncodeToString(sum[:]))
	}
	got := py.Run(t, "-c", `
import hashlib, os, sys, zstandard
d = sys.argv[1]
for i in range(int(sys.argv[2])):
    data = zstandard.ZstdDecompressor().decompress(open(os.path.join(d, str(i)), "rb").read())
    print(i, hashlib.sha256(data).hexdigest())
`, dir, fmt.Sprint(len(names)))
	if got == want.String() {
		return
	}
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(want.String(), "\n")
	for i, name := range names {
		if i >= len(gotLines) {
			t.Fatalf("%s: libzstd stopped before it: %q", name, got)
		}
		if gotLines[i] != wantLines[i] {
			t.Fatalf("%s: libzstd decoded it differently: %q, want %q", name, gotLines[i], wantLines[i])
		}
	}
	t.Fatalf("libzstd printed more than the %d bodies: %q", len(names), got)
}

// zstdSections describes the one block of a frame the encoder wrote: the
// block type (RFC 8878 §3.1.1.2.2), the literals section's type and, if
// Huffman-coded, its number of streams and whether the weights are
// FSE-compressed (§3.1.1.3.1, §4.2.1), and the sequences' compression modes
// (§3.1.1.3.2.1).
type zstdSections struct {
	block, literals, streams int
	fseWeights               bool
	sequences                int
	modes                    byte
}

func parseZstdSections(t *testing.T, f []byte) zstdSections {
	t.Helper()
	if !bytes.HasPrefix(f, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		t.Fatalf("no zstd magic number: % x", f[:min(len(f), 4)])
	}
	fhd := f[4]
	if fhd&(1<<5) == 0 || fhd&(1<<2) != 0 || fhd&3 != 0 {
		t.Fatalf("frame header descriptor %08b: want single segment, no checksum, no dictionary", fhd)
	}
	p := 5 + []int{1, 2, 4, 8}[fhd>>6]
	bh := int(f[p]) | int(f[p+1])<<8 | int(f[p+2])<<16
	p += 3
	var s zstdSections
	if s.block = bh >> 1 & 3; s.block != int(zstdBlockCompressed) {
		return s
	}
	b0 := f[p]
	s.literals = int(b0 & 3)
	sf := int(b0>>2) & 3
	var size int
	switch s.literals {
	case 0, 1: // raw, run
		var n, h int
		switch sf {
		case 0, 2:
			n, h = int(b0>>3), 1
		case 1:
			n, h = int(b0>>4)+int(f[p+1])<<4, 2
		default:
			n, h = int(b0>>4)+int(f[p+1])<<4+int(f[p+2])<<12, 3
		}
		size = h + 1
		if s.literals == 0 {
			size = h + n
		}
	default:
		// Regenerated_Size and Compressed_Size follow the 4 bits of type
		// and format, each of width bits.
		v := binary.LittleEndian.Uint64(append(f[p:p+5:p+5], 0, 0, 0))
		h, width := []int{3, 3, 4, 5}[sf], []int{10, 10, 14, 18}[sf]
		size = h + int(v>>(4+width)&(1<<width-1))
		s.streams = 4
		if sf == 0 {
			s.streams = 1
		}
		s.fseWeights = f[p+h] < 128
	}
	q := p + size
	s.sequences = int(f[q])
	switch {
	case s.sequences == 0:
		return s
	case s.sequences < 128:
		q++
	case s.sequences < 255:
		s.sequences = (s.sequences-128)<<8 + int(f[q+1])
		q += 2
	default:
		s.sequences = int(f[q+1]) + int(f[q+2])<<8 + 0x7f00
		q += 3
	}
	s.modes = f[q]
	return s
}

// The shapes reach every kind of section the encoder writes, so that the
// round-trip and libzstd tests above cover each (RFC 8878 §3.1.1.3): raw,
// run and Huffman literals in one and four streams, direct and
// FSE-compressed weights, predefined and built sequence tables, and raw
// blocks for what does not compress.
func TestZstdEncoderReachesEverySectionKind(t *testing.T) {
	names, shapes := sortedShapes(t)
	seen := map[string]bool{}
	var e Encoder
	for _, name := range names {
		s := parseZstdSections(t, e.Append(nil, shapes[name]))
		if s.block == int(zstdBlockRaw) {
			seen["raw block"] = true
			continue
		}
		seen[[]string{"raw literals", "run literals", "huffman literals", "treeless"}[s.literals]] = true
		if s.literals == 2 {
			seen[fmt.Sprintf("%d streams", s.streams)] = true
			seen[map[bool]string{true: "fse weights", false: "direct weights"}[s.fseWeights]] = true
		}
		if s.sequences == 0 {
			seen["no sequences"] = true
			continue
		}
		seen[map[bool]string{true: "built table", false: "predefined tables"}[s.modes != 0]] = true
		if s.modes&^0xfc != 0 {
			t.Errorf("%s: reserved bits set in the modes byte %08b", name, s.modes)
		}
	}
	for _, want := range []string{"raw block", "raw literals", "run literals", "huffman literals", "1 streams", "4 streams",
		"fse weights", "direct weights", "no sequences", "predefined tables", "built table"} {
		if !seen[want] {
			t.Errorf("no shape reaches %s", want)
		}
	}
	if seen["treeless"] {
		t.Error("treeless literals written: the encoder never repeats a code")
	}
}

// Literals above 128 cannot have direct weights (RFC 8878 §4.2.1.1): they
// are sent with FSE-compressed weights, not raw, and decode. Bodies of
// bytes up to 129 and more drawn from skewed distributions reach that case.
// (With the weights' own table the FSE description no longer comes out
// longer than direct weights would on these bodies, the case this test
// once looked for.)
func TestZstdUsesFSEWeightsAboveDirectRange(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	var e Encoder
	reached := 0
	for trial := 0; trial < 40 && reached < 2; trial++ {
		maxSym := 129 + r.IntN(127)
		weight := make([]float64, maxSym+1)
		q, f, sum := 0.80+0.19*r.Float64(), 1.0, 0.0
		for _, s := range r.Perm(maxSym + 1) {
			weight[s] = f
			sum += f
			f = max(f*q, 1e-4)
		}
		src := make([]byte, MaxBody)
		for i := range src {
			u, s := r.Float64()*sum, 0
			for ; s < maxSym && u >= weight[s]; s++ {
				u -= weight[s]
			}
			src[i] = byte(s)
		}
		frame := e.Append(nil, src)
		highest := 255
		for e.freq[highest] == 0 {
			highest--
		}
		fse, ok := e.appendFSEWeights(nil, e.weights[:highest])
		if highest <= zstdMaxDirect || !ok {
			continue
		}
		reached++
		if s := parseZstdSections(t, frame); s.literals != 2 || !s.fseWeights {
			t.Errorf("trial %d: literals up to %d, FSE weights %d bytes: literals section type %d, FSE weights %v; want Huffman with FSE weights",
				trial, highest, len(fse), s.literals, s.fseWeights)
		}
		if got := unzstd(t, frame); !bytes.Equal(got, src) {
			t.Fatalf("trial %d: decoded differently", trial)
		}
	}
	if reached == 0 {
		t.Fatal("no trial reached FSE weights above literal 128")
	}
}

// RFC 8878 §3.1.1.1.4: a 1-byte Frame_Content_Size up to 255, 2 bytes
// offset by 256 up to 65791, 4 bytes above; each decodes to its size.
func TestZstdFrameContentSize(t *testing.T) {
	var e Encoder
	for _, n := range []int{0, 1, 255, 256, 257, 65791, 65792, MaxBody} {
		src := bytes.Repeat([]byte("ab"), n/2+1)[:n]
		f := e.Append(nil, src)
		var size int
		switch f[4] >> 6 {
		case 0:
			size = int(f[5])
		case 1:
			size = int(binary.LittleEndian.Uint16(f[5:])) + 256
		case 2:
			size = int(binary.LittleEndian.Uint32(f[5:]))
		default:
			t.Fatalf("%d bytes: an 8-byte size field", n)
		}
		if size != n {
			t.Errorf("%d bytes: Frame_Content_Size says %d", n, size)
		}
		if got := unzstd(t, f); !bytes.Equal(got, src) {
			t.Errorf("%d bytes: decoded differently", n)
		}
	}
}

// RFC 8878 §3.1.1.5: offset values 1-3 name the last three offsets, shifted
// by one when the sequence has no literals, and the last offsets move as a
// decoder moves them. A decoder resolving the values codeSequences codes
// gets back every distance, and ends with the last offsets it keeps.
func TestZstdRepeatOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	seqs := make([]lzSeq, 5000)
	want := make([]uint32, len(seqs))
	for i := range seqs {
		// Few distinct distances and many empty literal runs, so every
		// repeat case comes up.
		d := []uint32{1, 2, 3, 4, 7, 8, 9, 100}[r.IntN(8)]
		seqs[i] = lzSeq{lits: uint32(r.IntN(2)), length: 4, dist: d}
		want[i] = d
	}
	c := blockCoder{seqs: seqs, rep: zstdStartRep}
	c.codeSequences()
	rep, optRep := [3]uint32{1, 4, 8}, zstdStartRep
	used := map[string]bool{}
	for i, s := range seqs {
		// The offset value is its code's power of two and the extra bits
		// above the literal length's and match length's (none here).
		code := c.codes[i]
		if code.ll != uint8(s.lits) || code.ml != 1 {
			t.Fatalf("sequence %d: literal length code %d, match length code %d", i, code.ll, code.ml)
		}
		v := uint32(1)<<code.of | uint32(code.extra)&(1<<code.of-1)
		// codeSequences writes offsetValue out: the two must agree.
		var optV uint32
		if optV, optRep = offsetValue(s.dist, optRep, s.lits == 0); optV != v {
			t.Fatalf("sequence %d: offset value %d, offsetValue's %d", i, v, optV)
		}
		var d uint32
		switch {
		case v > 3:
			d = v - 3
			rep = [3]uint32{d, rep[0], rep[1]}
		case s.lits > 0 && v == 1:
			d = rep[0]
		case s.lits > 0 && v == 2, s.lits == 0 && v == 1:
			d = rep[1]
			rep = [3]uint32{d, rep[0], rep[2]}
		case s.lits > 0 && v == 3, s.lits == 0 && v == 2:
			d = rep[2]
			rep = [3]uint32{d, rep[0], rep[1]}
		default: // no literals, 3: the last offset less one
			d = rep[0] - 1
			rep = [3]uint32{d, rep[0], rep[1]}
		}
		used[fmt.Sprint(s.lits > 0, min(v, 4))] = true
		if d != want[i] {
			t.Fatalf("sequence %d: offset value %d resolves to %d, want %d", i, v, d, want[i])
		}
	}
	if c.rep != rep {
		t.Errorf("last offsets %v, a decoder's %v", c.rep, rep)
	}
	if len(used) != 8 {
		t.Errorf("only %d of the 8 (literals, value) cases came up: %v", len(used), used)
	}
}

func FuzzZstdEncoder(f *testing.F) {
	f.Add([]byte("hello hello hello"), []byte("hello"))
	f.Add(bytes.Repeat([]byte{0}, 70000), []byte{1, 2, 3})
	f.Add(enctest.Shapes()["json"][:3000], enctest.Shapes()["every byte"])
	var e Encoder
	f.Fuzz(func(t *testing.T, first, second []byte) {
		both := append(append([]byte(nil), first...), second...)
		long := bytes.Repeat(both, lightMax/(len(both)+1)+1)
		for _, body := range [][]byte{first, second, long} {
			if len(body) > MaxBody {
				body = body[:MaxBody]
			}
			if got := unzstd(t, e.Append(nil, body)); !bytes.Equal(got, body) {
				t.Fatalf("%d bytes decoded differently", len(body))
			}
		}
	})
}

// BenchmarkZstdEncoder runs the encoder beside klauspost's EncodeAll at
// the default level, the encoding package's zstd before it, on the
// corpus's 1 and 4 KB JSON and CSS and on 4 KB of three shapes that are
// not text (random bytes, zeros, one sentence repeated), reporting the
// output size.
func BenchmarkZstdEncoder(b *testing.B) {
	_, cuts := enctest.CorpusCuts(b)
	kp, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(false), zstd.WithWindowSize(128<<10), zstd.WithLowerEncoderMem(true))
	if err != nil {
		b.Fatal(err)
	}
	for _, body := range []struct{ name, cut string }{
		{"json-1k", "json-records/orders.json/1024@0"}, {"json-4k", "json-records/orders.json/4096@0"},
		{"css-1k", "css-min/bootstrap.min.css/1024@0"}, {"css-4k", "css-min/bootstrap.min.css/4096@0"},
		{"random-4k", "random"}, {"zeros-4k", "zeros"}, {"repeated-4k", "text"},
	} {
		src := cuts[body.cut]
		if src == nil {
			src = enctest.Shapes()[body.cut][:4<<10]
		}
		b.Run("body="+body.name+"/impl=own", func(b *testing.B) {
			var e Encoder
			var out []byte
			b.ReportAllocs()
			for b.Loop() {
				out = e.Append(out[:0], src)
			}
			b.ReportMetric(float64(len(out)), "bytes")
		})
		b.Run("body="+body.name+"/impl=klauspost", func(b *testing.B) {
			var out []byte
			b.ReportAllocs()
			for b.Loop() {
				out = kp.EncodeAll(src, out[:0])
			}
			b.ReportMetric(float64(len(out)), "bytes")
		})
	}
}

// A divisor's quotients are those of a division, checked where a
// multiplication's rounding would show first: at and just below every
// multiple of n that a share can be, for every n up to above a block's
// most sequences.
func TestDivisorMatchesDivision(t *testing.T) {
	for n := 2; n <= 1<<17; n++ {
		by := newDivisor(n)
		for q := range 64 + 1 { // shares of up to 64 states
			for _, a := range []int{q*n - 1, q * n} {
				if a >= 0 && by.div(uint64(a)) != a/n {
					t.Fatalf("%d/%d: %d, want %d", a, n, by.div(uint64(a)), a/n)
				}
			}
		}
	}
}

// zstdNormalize's shares are the counts' quotients rounded down, at least
// one for a symbol present, the rest to the most common, on random counts.
func TestZstdNormalizeSharesAreQuotients(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		c := make([]uint32, 1+r.IntN(53))
		n := 0
		for s := range c {
			if r.IntN(3) > 0 {
				c[s] = uint32(r.IntN(1 << uint(r.IntN(16))))
			}
			n += int(c[s])
		}
		if n < 2 {
			continue
		}
		for _, log := range []uint8{zstdBuiltWeightsLog, zstdTableLog} {
			var norm [64]int16
			got, ok := zstdNormalize(&norm, c, n, log)
			// The shares by division, at least one for a symbol present,
			// the rest to the most common.
			want, most, sum := make([]int16, len(c)), 0, 0
			single := false
			for s, f := range c {
				if int(f) == n {
					single = true
				}
				if f != 0 {
					want[s] = int16(max(int(f)<<log/n, 1))
				}
				sum += int(want[s])
				if f > c[most] {
					most = s
				}
			}
			want[most] += int16(1<<log - sum)
			if single || want[most] < 1 {
				if ok {
					t.Fatalf("counts %v (log %d): normalized, want refused", c, log)
				}
				continue
			}
			if !ok || !slices.Equal(got, want) {
				t.Fatalf("counts %v (log %d): %v, %v; want %v", c, log, got, ok, want)
			}
		}
	}
}
