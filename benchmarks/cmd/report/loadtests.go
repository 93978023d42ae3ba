package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/squeezehttp/squeeze/benchmarks/chart"
	"github.com/squeezehttp/squeeze/benchmarks/load"
)

// browserAE is what Chrome sends.
const browserAE = "gzip, deflate, br, zstd"

// loadTarget is one row group of the wrk table.
type loadTarget struct {
	key    string // for the static-file target comparisons
	name   string
	nginx  bool   // served by nginx, else by a fresh loadserver
	path   string // with {asset} for the asset's name
	accept string // Accept-Encoding sent, "" for none
}

// url is t's URL on the server at base, serving the asset named asset.
func (t loadTarget) url(base, asset string) string {
	return base + strings.ReplaceAll(t.path, "{asset}", asset)
}

// header is the request header t sends, as load.Wrk and load.Ab take it.
func (t loadTarget) header() []string {
	if t.accept == "" {
		return nil
	}
	return []string{"Accept-Encoding: " + t.accept}
}

var loadTargets = []loadTarget{
	{"mw-json", "squeeze encoding, JSON 4 KB", false, "/json", browserAE},
	{"mw-br", "squeeze encoding, asset, br 4", false, "/asset", "br"},
	{"mw-gzip", "squeeze encoding, asset, gzip 4", false, "/asset", "gzip"},
	{"ng-br", "nginx on the fly, br 4", true, "/dyn/{asset}", "br"},
	{"ng-gzip", "nginx on the fly, gzip 4", true, "/dyn/{asset}", "gzip"},
	{"pc-sidecar", "squeeze precompressed, br sidecar", false, "/static/{asset}", "br"},
	{"ng-brstatic", "nginx brotli_static", true, "/static/{asset}", "br"},
	{"ng-gzstatic", "nginx gzip_static", true, "/static/{asset}", "gzip"},
	{"pc-fallback", "squeeze precompressed, no sidecar (cached)", false, "/fallback/{asset}", "br"},
	{"fs-same", "http.FileServer, the .br file as is (same bytes)", false, "/files/{asset}.br", ""},
	{"fs-plain", "http.FileServer, uncompressed", false, "/files/{asset}", ""},
}

// loadResult is one target's measurements.
type loadResult struct {
	target  loadTarget
	probe   load.Response
	wrk     map[int]load.WrkResult // by connections
	ab      load.AbResult
	abCmd   string
	peakRSS int64
	// abRuns and wrkRuns are the rps of each interleaved round (ab -k -c 1,
	// and wrk at the largest connection count for the pairs in wrkPairs).
	abRuns, wrkRuns []float64
}

// roundRatio is a's rate over b's: the median of the ratios of rounds run
// side by side, when both have them, so that the machine's speed drifting
// over a run (a neighbour's load, the clock) hits both sides of each ratio
// alike; otherwise the ratio of the two rates.
func roundRatio(a, b []float64, ra, rb float64) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return ra / rb
	}
	x := make([]float64, len(a))
	for i := range a {
		x[i] = a[i] / b[i]
	}
	return median(x)
}

// loadTests runs wrk (and, for the static-file targets, ab -k -c 1)
// against every target.
func (r *Report) loadTests(ctx context.Context) error {
	r.section("Load: wrk against our servers and nginx",
		fmt.Sprintf("Each row is %v of `wrk --latency` per connection count, 1 or 2 threads, over loopback; "+
			"our servers run as a separate process (`cmd/loadserver`, a fresh one per row, so its peak RSS (VmHWM) is that row's). "+
			"The asset is jQuery 3.7.1's jquery.min.js, whole (testdata/assets); sidecars are made at the highest levels (br 11, gzip 9, zstd 19). "+
			"Bytes/response is the body as sent, from one request before the run, which also fills the precompressed fallback's cache.",
			r.Mode.WrkDuration))
	if _, err := lookPath("wrk"); err != nil {
		r.skip("wrk is not installed (Debian: wrk)")
		// The comparisons built on these runs still get their section,
		// each row marked as not measured.
		r.staticTargets(nil)
		r.cacheTargets(nil)
		return nil
	}
	a, ng, stop, err := r.assetsAndNginx()
	if err != nil {
		return err
	}
	defer stop()
	_, abErr := lookPath("ab")
	if abErr != nil {
		r.logf("   ab rounds skipped: ab is not installed (Debian: apache2-utils)")
	}
	results := map[string]*loadResult{}
	var order []*loadResult
	var cmds []string
	for _, t := range allLoadTargets() {
		if t.nginx && (ng == nil || strings.HasPrefix(t.accept, "br") && !ng.Brotli) {
			continue
		}
		res, err := r.loadTarget(ctx, t, a, ng, &cmds)
		if err != nil {
			return err
		}
		results[t.key] = res
		order = append(order, res)
	}
	var nginxRSS int64
	if ng != nil {
		nginxRSS, _ = load.PeakRSS(ng.PID())
	}
	if abErr == nil {
		if err := r.abRounds(ctx, results, a, ng); err != nil {
			return err
		}
	}
	if err := r.wrkRounds(ctx, results, a); err != nil {
		return err
	}

	head := []string{"target", "coding", "bytes/resp"}
	for _, c := range r.Mode.WrkConns {
		head = append(head, fmt.Sprintf("rps c=%d", c), fmt.Sprintf("p50/p99 c=%d", c))
	}
	head = append(head, "peak RSS")
	var rows [][]string
	var bars []chart.Bar
	for _, res := range order {
		coding := res.probe.ContentEncoding
		if coding == "" {
			coding = "identity"
		}
		row := []string{res.target.name, coding, fmt.Sprint(res.probe.BodyBytes)}
		for _, c := range r.Mode.WrkConns {
			w := res.wrk[c]
			cell := num(w.RPS)
			if w.Errors > 0 {
				cell += fmt.Sprintf(" (errors: %d)", w.Errors)
			}
			row = append(row, cell, dur(w.P50)+" / "+dur(w.P99))
		}
		rss := "nginx: " + size(float64(nginxRSS))
		if !res.target.nginx {
			rss = size(float64(res.peakRSS))
		}
		rows = append(rows, append(row, rss))
		top := r.Mode.WrkConns[len(r.Mode.WrkConns)-1]
		bars = append(bars, chart.Bar{Label: res.target.key + " (" + coding + ")", Value: res.wrk[top].RPS, Ours: !res.target.nginx && !strings.HasPrefix(res.target.key, "fs-") && !strings.HasPrefix(res.target.key, "peer-")})
	}
	writeTable(r.md, head, rows)
	fmt.Fprintf(r.md, "nginx's peak RSS is for the single nginx process that serves all its rows. Commands (URLs vary by port):\n\n")
	command(r.md, cmds...)
	r.charts["load-rps.svg"] = chart.Bars{Title: fmt.Sprintf("wrk, %d connections: requests per second (squeeze in orange)", r.Mode.WrkConns[len(r.Mode.WrkConns)-1]), Unit: "rps", Bars: bars}
	fmt.Fprintf(r.md, "![requests per second]({charts}/load-rps.svg)\n\n")
	r.staticTargets(results)
	r.cacheTargets(results)
	return nil
}

// loadTarget measures one target: probe, wrk per connection count, ab
// where a static-file target asks for it, and the server's peak RSS.
func (r *Report) loadTarget(ctx context.Context, t loadTarget, a *assets, ng *load.Nginx, cmds *[]string) (*loadResult, error) {
	res := &loadResult{target: t, wrk: map[int]load.WrkResult{}}
	base := ""
	var srv *ours
	if t.nginx {
		base = ng.URL
	} else {
		var err error
		if srv, err = r.startOurs(a); err != nil {
			return nil, err
		}
		defer srv.Stop()
		base = srv.url
	}
	url, hdr := t.url(base, a.name), t.header()
	var err error
	if res.probe, err = load.Probe(url, t.accept); err != nil {
		return nil, err
	}
	if res.probe.Status != 200 {
		return nil, fmt.Errorf("report: %s answered %d", url, res.probe.Status)
	}
	for _, c := range r.Mode.WrkConns {
		w, cmd, err := load.Wrk(ctx, url, c, r.Mode.WrkDuration, hdr)
		if err != nil {
			return nil, err
		}
		r.logf("   %-45s c=%-3d %8.0f rps", t.name, c, w.RPS)
		res.wrk[c] = w
		if c == r.Mode.WrkConns[0] {
			*cmds = append(*cmds, cmd)
		}
	}
	if srv != nil {
		if res.peakRSS, err = load.PeakRSS(srv.PID()); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// staticTargetKeys are the targets the static-file comparisons need, in
// the order ab runs them.
var staticTargetKeys = []string{"pc-sidecar", "fs-same", "fs-plain", "ng-brstatic", "pc-fallback", "ng-br"}

// abRounds is how many times each ab run is repeated, interleaved with the
// others, so that a burst of load from elsewhere on the machine hits every
// target alike; the median is kept.
const abRounds = 3

// abRounds measures the static-file targets with ab -k -c 1, round-robin, all
// our targets served by one loadserver.
func (r *Report) abRounds(ctx context.Context, results map[string]*loadResult, a *assets, ng *load.Nginx) error {
	srv, err := r.startOurs(a)
	if err != nil {
		return err
	}
	defer srv.Stop()
	rps := map[string][]float64{}
	for round := range abRounds {
		for _, key := range staticTargetKeys {
			res := results[key]
			if res == nil {
				continue
			}
			t := res.target
			base := srv.url
			if t.nginx {
				base = ng.URL
			}
			url, hdr := t.url(base, a.name), t.header()
			n := r.Mode.AbN
			if t.nginx && strings.HasPrefix(t.path, "/dyn/") {
				// Compressing on every request, nginx needs seconds per thousand.
				n = min(n, 1000)
			}
			ab, cmd, err := load.Ab(ctx, url, n, hdr)
			if err != nil {
				return err
			}
			r.logf("   ab round %d %-45s %8.0f rps", round+1, t.name, ab.RPS)
			rps[key] = append(rps[key], ab.RPS)
			res.ab, res.abCmd = ab, cmd
		}
	}
	for key, v := range rps {
		results[key].ab.RPS = median(v)
		results[key].abRuns = v
	}
	return nil
}

// wrkPairs are targets whose comparison has a target tight enough that
// rows measured minutes apart cannot decide it: the cache's miss cost.
var wrkPairs = [][2]string{{"mw-cache-dynjson", "mw-dynjson"}}

// wrkRounds runs each pair of wrkPairs at the largest connection count,
// abRounds times, interleaved, on one loadserver, recording each round.
func (r *Report) wrkRounds(ctx context.Context, results map[string]*loadResult, a *assets) error {
	srv, err := r.startOurs(a)
	if err != nil {
		return err
	}
	defer srv.Stop()
	conns := r.Mode.WrkConns[len(r.Mode.WrkConns)-1]
	for round := range abRounds {
		for _, pair := range wrkPairs {
			for _, key := range pair {
				res := results[key]
				if res == nil {
					continue
				}
				t := res.target
				w, _, err := load.Wrk(ctx, t.url(srv.url, a.name), conns, r.Mode.WrkDuration, t.header())
				if err != nil {
					return err
				}
				r.logf("   wrk round %d %-45s c=%-3d %8.0f rps", round+1, t.name, conns, w.RPS)
				res.wrkRuns = append(res.wrkRuns, w.RPS)
			}
		}
	}
	return nil
}
