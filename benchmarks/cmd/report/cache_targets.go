package main

import (
	"fmt"
)

// cacheLoadTargets are the load rows of the middleware's compression cache
// (encoding.Config.Cache): the same asset written by a handler on every
// request, with the cache and through the peers that have none, and JSON
// that differs on every request, where the cache only costs.
var cacheLoadTargets = []loadTarget{
	{"mw-cache-br", "squeeze encoding + Cache, asset, br 4", false, "/cached/asset", "br"},
	{"mw-cache-gzip", "squeeze encoding + Cache, asset, gzip 4", false, "/cached/asset", "gzip"},
	{"mw-cache-br5", "squeeze encoding + Cache, asset, br 5", false, "/cached/higher/asset", "br"},
	{"mw-cache-gzip6", "squeeze encoding + Cache, asset, gzip 6", false, "/cached/higher/asset", "gzip"},
	{"peer-hc-br", "httpcompression, asset, br 4 (no cache)", false, "/peer/hc/asset", "br"},
	{"peer-hc-gzip", "httpcompression, asset, gzip 4 (no cache)", false, "/peer/hc/asset", "gzip"},
	{"peer-gzhttp-gzip", "gzhttp, asset, gzip 4 (no cache)", false, "/peer/gzhttp/asset", "gzip"},
	{"mw-dynjson", "squeeze encoding, JSON 4 KB, new each request", false, "/dynjson", browserAE},
	{"mw-cache-dynjson", "squeeze encoding + Cache, JSON 4 KB, new each request", false, "/cached/dynjson", browserAE},
}

// allLoadTargets is every row of the load table, in its order.
func allLoadTargets() []loadTarget {
	return append(append([]loadTarget(nil), loadTargets...), cacheLoadTargets...)
}

// cacheTargets checks the cache's targets against the load results: the
// asset from the cache at least 10× nginx compressing it on the fly at
// level 4, with output no larger, and dynamic JSON losing at most 5 % to
// the cache being on; the peers without a cache beside them. The rows at
// level 4 are at nginx's level; the rows one level up show what a cache,
// which compresses a repeated body at most twice, can afford.
func (r *Report) cacheTargets(res map[string]*loadResult) {
	r.section("Repeat responses: the middleware's compression cache", "A handler writes the same asset on every request; "+
		"with encoding.Config.Cache the middleware hashes it (SHA-256), finds the compressed bytes and sends them. "+
		"The dynamic JSON rows write a different body each time, so that every request is a miss: what the cache costs when it never helps. "+
		"The rows at level 4 compress at nginx's level; since a body that repeats is compressed at most twice, the rows at br 5 and gzip 6 show a level up at the same rate. "+
		"A target against nginx needs the rate and bytes no larger than nginx's. The wrk columns come from the load run above, "+
		"except the cache's miss cost: on and off run side by side on one server, interleaved, and the ratio is the median of the rounds' ratios.")
	conns := r.Mode.WrkConns[len(r.Mode.WrkConns)-1]
	var rows [][]string
	check := func(what, a, b string, target float64, noLarger bool) {
		x, y := res[a], res[b]
		if x == nil || y == nil {
			rows = append(rows, []string{what, "–", "–", "not measured (peer missing)"})
			return
		}
		ra, rb := x.wrk[conns].RPS, y.wrk[conns].RPS
		q := ra / rb
		note := ""
		if len(x.wrkRuns) > 0 && len(x.wrkRuns) == len(y.wrkRuns) {
			ra, rb = median(x.wrkRuns), median(y.wrkRuns)
			q = roundRatio(x.wrkRuns, y.wrkRuns, ra, rb)
			note = fmt.Sprintf(" (%d interleaved rounds)", len(x.wrkRuns))
		}
		verdict, bytesVerdict := "", ""
		if target > 0 {
			verdict = " ✗"
			if q >= target {
				verdict = " ✓"
			}
		}
		if noLarger {
			bytesVerdict = " ✗"
			if x.probe.BodyBytes <= y.probe.BodyBytes {
				bytesVerdict = " ✓"
			}
		}
		tt := targetText(target)
		if noLarger {
			tt += ", bytes no larger"
		}
		rows = append(rows, []string{what,
			fmt.Sprintf("%s vs %s = %s%s%s", num(ra), num(rb), ratio(q), verdict, note),
			fmt.Sprintf("%d vs %d%s", x.probe.BodyBytes, y.probe.BodyBytes, bytesVerdict),
			tt})
	}
	check("asset br 4, cache vs nginx br 4 on the fly", "mw-cache-br", "ng-br", 10, true)
	check("asset gzip 4, cache vs nginx gzip 4 on the fly", "mw-cache-gzip", "ng-gzip", 10, true)
	check("asset br 5, cache vs nginx br 4 on the fly", "mw-cache-br5", "ng-br", 10, true)
	check("asset gzip 6, cache vs nginx gzip 4 on the fly", "mw-cache-gzip6", "ng-gzip", 10, true)
	check("asset br 4, cache vs no cache", "mw-cache-br", "mw-br", 0, false)
	check("asset br 4, cache vs httpcompression", "mw-cache-br", "peer-hc-br", 0, false)
	check("asset gzip 4, cache vs httpcompression", "mw-cache-gzip", "peer-hc-gzip", 0, false)
	check("asset gzip 4, cache vs gzhttp", "mw-cache-gzip", "peer-gzhttp-gzip", 0, false)
	check("dynamic JSON, cache on vs off (every request a miss)", "mw-cache-dynjson", "mw-dynjson", 0.95, false)
	writeTable(r.md, []string{"comparison", fmt.Sprintf("wrk -c %d (rps)", conns), "bytes/response", "target"}, rows)
}
