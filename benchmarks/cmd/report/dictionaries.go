package main

import (
	"context"
	"fmt"
	"math"
)

// routeDictionaries measures what a route dictionary saves on the corpus's
// JSON: BenchmarkRouteDictionary, once, dcz with the dictionary against br
// 4 and zstd 3 on held-back responses, and where the route announces it.
func (r *Report) routeDictionaries(ctx context.Context) error {
	r.section("Route dictionaries: dcz for a JSON API's responses",
		"Each JSON source of the corpus stands for the responses of one API route, cut at 1, 2 and 4 KiB one after the other; "+
			"`dictionary.Route.Build` makes the route's dictionary from four cuts in five and measures it on the fifth (held back, "+
			"never in the dictionary). *B/response* is a held-back response's mean bytes as dcz with the dictionary (its 40-byte "+
			"header included, `squeeze`), as br 4 and as zstd 3; each ratio is br's or zstd's bytes over dcz's. *announced* is 1 "+
			"where the route announces the dictionary: dcz at least `DefaultMinGain` (1.3) times smaller than the better of the two. "+
			"At 4 KiB a source gives one held-back response, so those rows are single measures.")
	lines, cmdline, ok := r.benchOnce(ctx, "^BenchmarkRouteDictionary$")
	if !ok {
		return nil
	}
	r.benchTable(goBench{name: "RouteDictionary", metrics: []string{"B/response", "announced"}}, lines)
	fmt.Fprintf(r.md, "%s\n\n```\n%s\n```\n\n", announcedSummary(lines), cmdline)
	return nil
}

// announcedSummary says, over the cases where the route announced its
// dictionary, how many times smaller than br 4 dcz was: geomean and worst.
func announcedSummary(lines []benchLine) string {
	dcz, br := map[string]float64{}, map[string]float64{}
	announced := map[string]bool{}
	for _, l := range lines {
		switch l.impl {
		case "squeeze":
			dcz[l.group] = l.values["B/response"]
			announced[l.group] = l.values["announced"] == 1
		case "br-4":
			br[l.group] = l.values["B/response"]
		}
	}
	var ratios []float64
	worst, worstCase := math.Inf(1), ""
	for g, ok := range announced {
		if !ok || dcz[g] == 0 || br[g] == 0 {
			continue
		}
		x := br[g] / dcz[g]
		ratios = append(ratios, x)
		if x < worst {
			worst, worstCase = x, g
		}
	}
	if len(ratios) == 0 {
		return "The route announced no dictionary."
	}
	return fmt.Sprintf("Where the route announces its dictionary (%d of %d cases), dcz is %s smaller than br 4 (geomean), %s at worst (%s).",
		len(ratios), len(announced), ratio(geomean(ratios)), ratio(worst), worstCase)
}
