package encoding

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// libraryEncode is body encoded straight with klauspost/compress or
// andybalholm/brotli at level, framed as the built-in codecs frame it
// (gzip without a time stamp, zstd without a checksum, brotli with the
// smallest window that holds the body): the reference a level is held to.
func libraryEncode(tb testing.TB, coding string, body []byte, level int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	switch coding {
	case "deflate":
		return nil
	case "gzip":
		w, err := gzip.NewWriterLevel(&buf, level)
		if err != nil {
			tb.Fatal(err)
		}
		w.ModTime = noTime
		w.Write(body)
		w.Close()
	case "br":
		w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: level, LGWin: brotliWindowFor(len(body), level)})
		w.Write(body)
		w.Close()
	case "zstd":
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)), zstd.WithEncoderCRC(false),
			zstd.WithWindowSize(zstdSmallBody), zstd.WithLowerEncoderMem(true))
		if err != nil {
			tb.Fatal(err)
		}
		return e.EncodeAll(body, nil)
	default:
		tb.Fatalf("no library reference for %s", coding)
	}
	return buf.Bytes()
}

// levelPair is a level of a codec and the library level its output is
// held against.
type levelPair struct{ level, library int }

// sameLevels pairs each level with itself.
func sameLevels(levels ...int) []levelPair {
	var out []levelPair
	for _, l := range levels {
		out = append(out, levelPair{l, l})
	}
	return out
}

// sizeTable compares c's output on every corpus body of at most maxBody
// bytes with the library's, for each pair of levels, and returns per pair
// and kind of body the geometric mean and the worst of c/library, and where
// c breaks a level's promise (see Coding.Level): a kind whose geometric
// mean is over ownGeomeanBound, a body of ownWorstFrom bytes or more over
// ownWorstBound. Every output must decode to the body.
func sizeTable(t *testing.T, c Codec, pairs []levelPair, maxBody int) (table string, over []string) {
	t.Helper()
	bodies, err := corpus.Bodies()
	if err != nil {
		t.Fatal(err)
	}
	type ratios struct {
		n         int
		logSum    float64
		worst     float64
		worstBody string
	}
	var out strings.Builder
	for _, p := range pairs {
		stats := map[string]*ratios{}
		var kinds []string
		for _, b := range bodies {
			if len(b.Data) > maxBody {
				continue
			}
			got, err := c.(AppendEncoder).AppendEncode(nil, b.Data, p.level)
			if err != nil {
				t.Fatal(err)
			}
			checkDecodes(t, b.Name(), c.Name(), got, b.Data)
			lib := libraryEncode(t, c.Name(), b.Data, p.library)
			r := float64(len(got)) / float64(len(lib))
			if r > ownWorstBound && len(b.Data) >= ownWorstFrom {
				over = append(over, fmt.Sprintf("%s %d against %d, %s: %d bytes, %+.1f %% over the library's %d",
					c.Name(), p.level, p.library, b.Name(), len(got), 100*(r-1), len(lib)))
			}
			s := stats[b.Kind]
			if s == nil {
				s = &ratios{worst: r, worstBody: b.Name()}
				stats[b.Kind] = s
				kinds = append(kinds, b.Kind)
			}
			s.n++
			s.logSum += math.Log(r)
			if r > s.worst {
				s.worst, s.worstBody = r, b.Name()
			}
		}
		slices.Sort(kinds)
		for _, k := range kinds {
			s := stats[k]
			if g := math.Exp(s.logSum / float64(s.n)); g > ownGeomeanBound {
				over = append(over, fmt.Sprintf("%s %d against %d, %s: geomean %+.1f %% over the library's", c.Name(), p.level, p.library, k, 100*(g-1)))
			}
			fmt.Fprintf(&out, "| %s | %d | %d | %s | %d | %+.2f %% | %+.2f %% | %s |\n", c.Name(), p.level, p.library, k, s.n,
				100*(math.Exp(s.logSum/float64(s.n))-1), 100*(s.worst-1), s.worstBody)
		}
	}
	return out.String(), over
}

const sizeTableHeader = "| coding | level | library level | kind | bodies | geomean | worst | worst body |\n|---|---|---|---|---|---|---|---|\n"

// DESIGN "A level means the library's trade-off": on the corpus (every
// kind, 256 B to 8 KiB) at every level an own encoder is a candidate for,
// what the built-in codecs send keeps the level's promise against
// klauspost/compress's or andybalholm/brotli's output at that level: per
// kind at most 1 % more (geometric mean), no body of 1 KiB or more over 8 %
// more (TestOwnEncoderRule holds the own encoders' table to the rule).
func TestBuiltinCodecsKeepTheLevelsPromise(t *testing.T) {
	t.Parallel()
	var table strings.Builder
	for _, c := range []struct {
		codec Codec
		pairs []levelPair
	}{
		{Gzip(), sameLevels(ownCandidateLevels("gzip")...)},
		{Deflate(), nil},
		{Zstd(), sameLevels(ownCandidateLevels("zstd")...)},
		{Brotli(), sameLevels(ownCandidateLevels("br")...)},
	} {
		rows, over := sizeTable(t, c.codec, c.pairs, math.MaxInt)
		table.WriteString(rows)
		for _, o := range over {
			t.Error(o)
		}
	}
	t.Log("built-in codecs against the library:\n" + sizeTableHeader + table.String())
}
