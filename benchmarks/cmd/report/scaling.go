package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/squeezehttp/squeeze/benchmarks/chart"
	"github.com/squeezehttp/squeeze/benchmarks/load"
	"github.com/squeezehttp/squeeze/encoding"
)

// scaling measures how cost grows with work: time per response against
// body size, heap against compressed responses in flight, and heap against
// idle WebSocket connections.
func (r *Report) scaling(ctx context.Context) error {
	if err := r.scalingBodySize(ctx); err != nil {
		return err
	}
	if err := r.scalingInFlight(ctx); err != nil {
		return err
	}
	return r.scalingWSIdle(ctx)
}

// scaleCodecs are the codings of the scaling runs, at level 4 like the
// load tests.
var scaleCodecs = []encoding.Codec{encoding.Zstd(), encoding.Brotli(), encoding.Gzip()}

func (r *Report) scalingBodySize(ctx context.Context) error {
	r.section("Scaling: time per response against body size",
		"One response through the encoding middleware (level 4, default Config otherwise) into a discarding ResponseWriter, "+
			"in this process; the body is generated API-like JSON of the given size. Bodies up to 128 KiB go through the one-shot path, "+
			"longer ones stream. Slope: a least-squares line over the sizes from 64 KB up, in ns per KB of input, and the exponent of a power law "+
			"fitted to all sizes (1.0 is linear).")
	var series []chart.Series
	head := []string{"codec"}
	for _, n := range r.Mode.BodySizes {
		head = append(head, sizeLabel(n))
	}
	head = append(head, "slope (≥ 64 KB)", "exponent")
	var rows [][]string
	for _, codec := range scaleCodecs {
		mw, err := encoding.New(encoding.Config{Codings: []encoding.Coding{{Codec: codec, Level: 4}}})
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Accept-Encoding", codec.Name())
		ser := chart.Series{Name: codec.Name()}
		row := []string{codec.Name()}
		var xs, ys, bigX, bigY []float64
		for _, n := range r.Mode.BodySizes {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			body := load.JSON(n)
			h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(body)
			}))
			w := &sink{h: http.Header{}}
			per := measure(r.Mode.LevelTime*2, func() {
				w.reset()
				h.ServeHTTP(w, req)
			})
			if w.h.Get("Content-Encoding") != codec.Name() {
				return fmt.Errorf("report: a %d-byte body went out with Content-Encoding %q, want %s", n, w.h.Get("Content-Encoding"), codec.Name())
			}
			ser.Points = append(ser.Points, chart.Point{X: float64(n), Y: float64(per) / 1e3})
			row = append(row, dur(per))
			xs, ys = append(xs, float64(n)), append(ys, float64(per))
			if n >= 64<<10 {
				bigX, bigY = append(bigX, float64(n)/1024), append(bigY, float64(per))
			}
		}
		_, k := fit(bigX, bigY)
		slope := "–"
		if len(bigX) >= 2 {
			slope = fmt.Sprintf("%.0f ns/KB (%.0f MB/s)", k, 1024/k*1e3)
		}
		rows = append(rows, append(row, slope, fmt.Sprintf("%.2f", logSlope(xs, ys))))
		series = append(series, ser)
	}
	writeTable(r.md, head, rows)
	command(r.md, "go run ./cmd/report -only scaling")
	r.charts["scaling-body.svg"] = chart.Line{Title: "Time per response against body size (level 4)",
		XLabel: "body bytes (log)", YLabel: "µs per response (log)", LogX: true, LogY: true, Series: series}
	r.md.WriteString("![time per response]({charts}/scaling-body.svg)\n\n")
	return nil
}

// memReply is cmd/loadserver's /mem.
type memReply struct {
	HeapInuse  uint64 `json:"heap_inuse"`
	StackInuse uint64 `json:"stack_inuse"`
	InFlight   int64  `json:"in_flight"`
	WSConns    int64  `json:"ws_conns"`
}

// waitMem polls /mem until ok accepts the reply, for at most a minute.
func waitMem(ctx context.Context, base string, ok func(memReply) bool) (memReply, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		m, err := getMem(ctx, base)
		if err != nil {
			return m, err
		}
		if ok(m) {
			return m, nil
		}
		if time.Now().After(deadline) {
			return m, fmt.Errorf("report: loadserver never reached the expected state: %+v", m)
		}
		select {
		case <-ctx.Done():
			return m, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
