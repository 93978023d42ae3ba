package main

import (
	"fmt"
)

// staticTargets checks the precompressed package's performance targets against
// the load results: sidecars within 10 % of http.FileServer serving the
// same bytes (ab -k -c 1 and wrk -c 32), next to nginx brotli_static; the
// cached fallback at least 10× nginx compressing at level 4 on the fly,
// with output no larger, and at least as fast as the sidecar and as
// http.FileServer, next to nginx brotli_static. A comparison whose targets did not run (nginx,
// or wrk, missing) is a row marked not measured, as is the ab column when
// ab is missing.
func (r *Report) staticTargets(res map[string]*loadResult) {
	r.begin("static")
	r.section("Static files: the precompressed package's targets", "The wrk columns come from the load run above. "+
		"ab runs three interleaved rounds per target; a rate is the median of its rounds, a ratio the median of the rounds' ratios. \"Same bytes\" is http.FileServer sending the .br sidecar as a plain file: the bytes on the wire match, only the work differs.")
	// The targets are set at wrk -c 32; a mode without it uses its largest count.
	conns := r.Mode.WrkConns[len(r.Mode.WrkConns)-1]
	if contains(r.Mode.WrkConns, 32) {
		conns = 32
	}
	var rows [][]string
	rps := func(key string) (ab, wrk float64, ok, abOK bool) {
		x := res[key]
		if x == nil {
			return 0, 0, false, false
		}
		return x.ab.RPS, x.wrk[conns].RPS, true, x.abCmd != ""
	}
	check := func(what, a, b string, target float64) {
		abA, wrkA, okA, abOKA := rps(a)
		abB, wrkB, okB, abOKB := rps(b)
		if !okA || !okB {
			rows = append(rows, []string{what, "–", "–", "not measured (peer missing)"})
			return
		}
		verdict := func(x float64) string {
			if target == 0 {
				return ""
			}
			if x >= target {
				return " ✓"
			}
			return " ✗"
		}
		abCell := "not measured (peer missing)"
		if abOKA && abOKB {
			x := roundRatio(res[a].abRuns, res[b].abRuns, abA, abB)
			abCell = fmt.Sprintf("%s vs %s = %s%s", num(abA), num(abB), ratio(x), verdict(x))
		}
		rows = append(rows, []string{what, abCell,
			fmt.Sprintf("%s vs %s = %s%s", num(wrkA), num(wrkB), ratio(wrkA/wrkB), verdict(wrkA/wrkB)),
			targetText(target)})
		if target > 0 && abOKA && abOKB && abB > 0 {
			x := roundRatio(res[a].abRuns, res[b].abRuns, abA, abB)
			r.addSummary(what, fmt.Sprintf("%s (ab -k -c 1), %s (wrk -c %d)", ratio(x), ratio(wrkA/wrkB), conns), res[a].abCmd)
		}
	}
	check("br sidecar vs http.FileServer, same bytes", "pc-sidecar", "fs-same", 0.9)
	check("br sidecar vs http.FileServer, uncompressed file", "pc-sidecar", "fs-plain", 0)
	check("br sidecar vs nginx brotli_static", "pc-sidecar", "ng-brstatic", 0)
	check("no sidecar, cached, vs nginx br 4 on the fly", "pc-fallback", "ng-br", 10)
	check("no sidecar, cached, vs br sidecar", "pc-fallback", "pc-sidecar", 1)
	check("no sidecar, cached, vs http.FileServer sending the br sidecar", "pc-fallback", "fs-same", 1)
	check("no sidecar, cached, vs nginx brotli_static", "pc-fallback", "ng-brstatic", 0)
	writeTable(r.md, []string{"comparison", "ab -k -c 1 (rps)", fmt.Sprintf("wrk -c %d (rps)", conns), "target"}, rows)
	if f, n := res["pc-fallback"], res["ng-br"]; f != nil && n != nil {
		verdict := "no larger ✓"
		if f.probe.BodyBytes > n.probe.BodyBytes {
			verdict = "larger ✗"
		}
		fmt.Fprintf(r.md, "Output size: the cached fallback sends %d bytes of %s, nginx br 4 on the fly %d bytes of %s: %s.\n\n",
			f.probe.BodyBytes, f.probe.ContentEncoding, n.probe.BodyBytes, n.probe.ContentEncoding, verdict)
	}
	var cmds []string
	for _, k := range staticTargetKeys {
		if x := res[k]; x != nil && x.abCmd != "" {
			cmds = append(cmds, x.abCmd)
		}
	}
	if len(cmds) > 0 {
		command(r.md, cmds...)
	}
}

func targetText(t float64) string {
	switch {
	case t == 0:
		return "reported"
	case t < 1:
		return fmt.Sprintf("≥ %.2f× (within %d %%)", t, int((1-t)*100+0.5))
	default:
		return fmt.Sprintf("≥ %.0f×", t)
	}
}
