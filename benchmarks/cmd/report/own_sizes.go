package main

import (
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
}

// ownSize is the own encoder's output over the library's for the bodies
// of one kind at one level: the geomean and the worst body.
type ownSize struct {
	geomean, worst float64
	worstBody      string
	bodies         int
}

// ownSizes encodes every body of the corpus that an own encoder serves
// with it and with the library at the same level, one-shot as the
// middleware does with a body it holds whole: exact sizes, so the worst
// case is a body's, not a mean's. Keyed by level, then kind.
func ownSizes() (map[string]map[string]ownSize, error) {
	bodies, err := corpus.Bodies()
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	out := map[string]map[string]ownSize{}
	for _, l := range ownLevels {
		coding := l.codec.Name()
		lib := encoding.LibraryEncoders(l.codec).(encoding.AppendEncoder)
		own := l.codec.(encoding.AppendEncoder)
		logs := map[string][]float64{}
		worst := map[string]ownSize{}
		for _, b := range bodies {
			if len(b.Data) > ownMaxBody[coding] {
				continue
			}
			o, err := own.AppendEncode(nil, b.Data, l.n)
			if err != nil {
				return nil, fmt.Errorf("report: own %s: %w", l.level, err)
			}
			x, err := lib.AppendEncode(nil, b.Data, l.n)
			if err != nil {
				return nil, fmt.Errorf("report: %s: %w", l.level, err)
			}
			r := float64(len(o)) / float64(len(x))
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
	return out, nil
}

// String writes the geomean and the worst body, in per cent.
func (s ownSize) String() string {
	if s.bodies == 0 {
		return "–"
	}
	return fmt.Sprintf("%s / %s (%s)", pct(s.geomean), pct(s.worst), s.worstBody)
}
