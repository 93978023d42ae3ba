package main

import (
	"context"
	"fmt"

	"github.com/squeezehttp/squeeze/benchmarks/chart"
	"github.com/squeezehttp/squeeze/encoding"
)

// sweep lists the levels measured per codec. zstd's 22 levels map onto
// klauspost's four speeds, so one level of each speed is enough.
var sweep = []struct {
	codec  encoding.Codec
	levels []int
}{
	{encoding.Zstd(), []int{1, 3, 6, 10}},
	{encoding.Brotli(), []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	{encoding.Gzip(), []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
}

// levels measures each codec at each level on the asset, whole-body
// (AppendEncode, what the middleware does for a body it holds whole):
// compression speed against output size.
func (r *Report) levels(ctx context.Context) error {
	a, err := r.prepareAssets()
	if err != nil {
		return err
	}
	r.section("Level sweep: speed against size",
		fmt.Sprintf("Each codec's AppendEncode (the middleware's whole-body path) on %s (%d bytes), one goroutine, "+
			"median of three rounds of %v each. MB/s is input bytes per second.", a.name, fileSize(a.asset), r.Mode.LevelTime))
	data, err := readFile(a.asset)
	if err != nil {
		return err
	}
	var series []chart.Series
	var rows [][]string
	for _, s := range sweep {
		enc := s.codec.(encoding.AppendEncoder)
		ser := chart.Series{Name: s.codec.Name()}
		var dst []byte
		levels := s.levels
		if r.Mode.Tiny {
			// brotli's 10 and 11 take half a second per op.
			levels = levels[:2]
		}
		for _, lvl := range levels {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var n int
			per := measure(r.Mode.LevelTime, func() {
				dst, _ = enc.AppendEncode(dst[:0], data, lvl)
				n = len(dst)
			})
			mbs := float64(len(data)) / per.Seconds() / 1e6
			ser.Points = append(ser.Points, chart.Point{X: float64(n), Y: mbs, Label: fmt.Sprint(lvl)})
			rows = append(rows, []string{s.codec.Name(), fmt.Sprint(lvl), fmt.Sprint(n),
				fmt.Sprintf("%.2f", float64(len(data))/float64(n)), num(mbs), dur(per)})
		}
		series = append(series, ser)
	}
	writeTable(r.md, []string{"codec", "level", "output bytes", "ratio", "MB/s", "time"}, rows)
	command(r.md, "go run ./cmd/report -only levels")
	r.charts["levels.svg"] = chart.Line{Title: "Level sweep on " + a.name + " (labels: level)",
		XLabel: "output bytes", YLabel: "MB/s (log)", LogY: true, Series: series}
	r.md.WriteString("![level sweep]({charts}/levels.svg)\n\n")
	return nil
}
