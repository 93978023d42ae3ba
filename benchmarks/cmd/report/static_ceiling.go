package main

import (
	"context"
	"fmt"
	"time"

	"github.com/squeezehttp/squeeze/benchmarks/load"
	"github.com/squeezehttp/squeeze/precompressed"
)

// ceilingTargets are the rows of the static files' ceiling: Go's own, a
// plain handler writing the .br sidecar's bytes from memory, first; then
// squeeze's file server, http.FileServer sending the same bytes, and
// nginx brotli_static.
var ceilingTargets = []loadTarget{
	{"mem-ceiling", "bytes from memory (a plain handler, the .br bytes)", false, "/memory/{asset}", "br"},
	{"pc-sidecar", "squeeze precompressed, br sidecar", false, "/static/{asset}", "br"},
	{"pc-fallback", "squeeze precompressed, no sidecar (cached)", false, "/fallback/{asset}", "br"},
	{"fs-same", "http.FileServer, the .br file as is (same bytes)", false, "/files/{asset}.br", ""},
	{"ng-brstatic", "nginx brotli_static", true, "/static/{asset}", "br"},
}

// ceilingConns are the connection counts of the ceiling's rounds.
var ceilingConns = []int{1, 64}

// staticCeiling measures each static-file server against the ceiling: wrk
// at c=1 and c=64, every target in turn, abRounds interleaved rounds, all
// of ours on one loadserver; a ratio is the median of the rounds' ratios,
// so that load from elsewhere on the machine hits both sides of each.
func (r *Report) staticCeiling(ctx context.Context) error {
	r.section("Static files against Go's ceiling", fmt.Sprintf("The ceiling is a plain handler writing the .br sidecar's bytes from memory with "+
		"Content-Type, Content-Encoding, Content-Length and Vary set: what net/http allows a Go file server. Each row is %d interleaved "+
		"rounds of %v of wrk per connection count over loopback, the same asset as the load section (jQuery 3.7.1, br 11 sidecar); "+
		"a rate is the median of its rounds, a ratio the median of the rounds' ratios to the ceiling. The cached fallback is sent "+
		"until it has re-made the file at the best level before the rounds start, as a busy server has.", abRounds, r.Mode.WrkDuration))
	if _, err := lookPath("wrk"); err != nil {
		r.skip("wrk is not installed (Debian: wrk)")
		return nil
	}
	a, ng, stop, err := r.assetsAndNginx()
	if err != nil {
		return err
	}
	defer stop()
	srv, err := r.startOurs(a)
	if err != nil {
		return err
	}
	defer srv.Stop()
	var targets []loadTarget
	probes := map[string]load.Response{}
	for _, t := range ceilingTargets {
		base := srv.url
		if t.nginx {
			if ng == nil || !ng.Brotli {
				continue
			}
			base = ng.URL
		}
		p, err := load.Probe(t.url(base, a.name), t.accept)
		if err == nil && t.key == "pc-fallback" {
			p, err = warmFallback(t.url(base, a.name), t.accept)
		}
		if err != nil {
			return err
		}
		if p.Status != 200 {
			return fmt.Errorf("report: %s answered %d", t.url(base, a.name), p.Status)
		}
		probes[t.key] = p
		targets = append(targets, t)
	}
	runs := map[string]map[int][]float64{}
	var cmds []string
	for round := range abRounds {
		for _, c := range ceilingConns {
			for _, t := range targets {
				base := srv.url
				if t.nginx {
					base = ng.URL
				}
				w, cmd, err := load.Wrk(ctx, t.url(base, a.name), c, r.Mode.WrkDuration, t.header())
				if err != nil {
					return err
				}
				r.logf("   ceiling round %d %-50s c=%-3d %8.0f rps", round+1, t.name, c, w.RPS)
				if runs[t.key] == nil {
					runs[t.key] = map[int][]float64{}
				}
				runs[t.key][c] = append(runs[t.key][c], w.RPS)
				if round == 0 && c == ceilingConns[0] {
					cmds = append(cmds, cmd)
				}
			}
		}
	}
	writeTable(r.md, ceilingHead(), ceilingRows(targets, probes, runs))
	command(r.md, cmds...)
	return nil
}

// warmFallback sends the cached fallback at url the responses after which
// it re-makes the file at the best level in the background, and returns a
// response made after that, once its size has changed from the default
// level's (or after 10 s): the rounds then measure what a busy server
// sends, the bytes the table gives, and not the recompression.
func warmFallback(url, accept string) (load.Response, error) {
	first, err := load.Probe(url, accept)
	for range precompressed.DefaultFallbackRecompressAfter {
		if err != nil {
			return first, err
		}
		_, err = load.Probe(url, accept)
	}
	p := first
	for deadline := time.Now().Add(10 * time.Second); err == nil && p.BodyBytes == first.BodyBytes && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		p, err = load.Probe(url, accept)
	}
	return p, err
}

func ceilingHead() []string {
	head := []string{"server", "coding", "bytes/resp"}
	for _, c := range ceilingConns {
		head = append(head, fmt.Sprintf("rps c=%d", c), fmt.Sprintf("× ceiling c=%d", c))
	}
	return head
}

// ceilingRows gives each target's median rate and its ratio to the
// ceiling's, per connection count, from the rounds in runs.
func ceilingRows(targets []loadTarget, probes map[string]load.Response, runs map[string]map[int][]float64) [][]string {
	ceiling := runs["mem-ceiling"]
	var rows [][]string
	for _, t := range targets {
		coding := probes[t.key].ContentEncoding
		if coding == "" {
			coding = "identity"
		}
		row := []string{t.name, coding, fmt.Sprint(probes[t.key].BodyBytes)}
		for _, c := range ceilingConns {
			v := runs[t.key][c]
			rate := median(v)
			row = append(row, num(rate), ratio(roundRatio(v, ceiling[c], rate, median(ceiling[c]))))
		}
		rows = append(rows, row)
	}
	return rows
}
