package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// ownLevels are the codings and levels the own small-body encoders serve,
// with the library codec they stand in for.
var ownLevels = []struct {
	level string // as BenchmarkEqualLevel names it
	codec encoding.Codec
	n     int
}{
	{"gzip 5", encoding.Gzip(), 5},
	{"br 4", encoding.Brotli(), 4},
	{"zstd 3", encoding.Zstd(), 3},
}

// ownSize is the own encoder's output over the library's for the bodies
// of one kind at one level: the geomean and the worst body.
type ownSize struct {
	geomean, worst float64
	worstBody      string
	bodies         int
}

// ownSizes encodes every body of the corpus with the codec as shipped and
// with the library at the same level, one-shot as the middleware does
// with a body it holds whole, and returns, for the bodies the own encoder
// serves, their exact sizes (so the worst case is a body's, not a mean's)
// keyed by level, then kind; and per coding the largest body the own
// encoder serves: the largest cut whose two encodings differ, read off
// the codecs rather than kept here beside encoding's own table.
func ownSizes() (map[string]map[string]ownSize, map[string]int, error) {
	bodies, err := corpus.Bodies()
	if err != nil {
		return nil, nil, fmt.Errorf("report: %w", err)
	}
	out, maxBody := map[string]map[string]ownSize{}, map[string]int{}
	for _, l := range ownLevels {
		coding := l.codec.Name()
		lib := encoding.LibraryEncoders(l.codec).(encoding.AppendEncoder)
		own := l.codec.(encoding.AppendEncoder)
		type pair struct{ own, lib int }
		encoded := make([]pair, len(bodies))
		for i, b := range bodies {
			o, err := own.AppendEncode(nil, b.Data, l.n)
			if err != nil {
				return nil, nil, fmt.Errorf("report: own %s: %w", l.level, err)
			}
			x, err := lib.AppendEncode(nil, b.Data, l.n)
			if err != nil {
				return nil, nil, fmt.Errorf("report: %s: %w", l.level, err)
			}
			encoded[i] = pair{len(o), len(x)}
			if !bytes.Equal(o, x) {
				maxBody[coding] = max(maxBody[coding], len(b.Data))
			}
		}
		logs := map[string][]float64{}
		worst := map[string]ownSize{}
		for i, b := range bodies {
			if len(b.Data) > maxBody[coding] {
				continue
			}
			r := float64(encoded[i].own) / float64(encoded[i].lib)
			logs[b.Kind] = append(logs[b.Kind], r)
			if w := worst[b.Kind]; r > w.worst {
				worst[b.Kind] = ownSize{worst: r, worstBody: strings.TrimPrefix(b.Name(), b.Kind+"/")}
			}
		}
		out[l.level] = map[string]ownSize{}
		for kind, rs := range logs {
			w := worst[kind]
			out[l.level][kind] = ownSize{geomean: geomean(rs), worst: w.worst, worstBody: w.worstBody, bodies: len(rs)}
		}
	}
	return out, maxBody, nil
}

// String writes the geomean and the worst body, in per cent.
func (s ownSize) String() string {
	if s.bodies == 0 {
		return "–"
	}
	return fmt.Sprintf("%s / %s (%s)", pct(s.geomean), pct(s.worst), s.worstBody)
}
