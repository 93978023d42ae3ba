package encoding

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// ownVerdict is the byte half of the rule of own.go for one (coding, level,
// size class): on every corpus body of the class, the own encoder's output
// against the library's at that level.
type ownVerdict struct {
	coding      string
	level       int
	class       int // the class's largest body
	kinds       []kindRatio
	worst       float64 // the worst ratio over the bodies of 1 KiB or more
	worstBody   string
	passes      bool
	failsReason string
}

// kindRatio is one kind's geometric mean of own/library bytes in a class.
type kindRatio struct {
	kind    string
	n       int
	geomean float64
}

// ownEncodeFor encodes body with coding's own encoder at level, framed as
// the codec frames it.
func ownEncodeFor(coding string, body []byte, level int) []byte {
	return appendOwnFor(nil, coding, body, level)
}

// appendOwnFor appends src encoded with coding's own encoder at level to
// dst. The zstd and brotli ones encode alike at every level.
func appendOwnFor(dst []byte, coding string, src []byte, level int) []byte {
	switch coding {
	case "gzip":
		return gzipBuiltin.appendOwn(dst, src, level, 0, 0)
	case "zstd":
		return appendOwnZstd(dst, src)
	case "br":
		return appendOwnBrotli(dst, src)
	}
	panic("no own encoder for " + coding)
}

// ownVerdicts computes the byte verdicts of the rule for coding at level,
// one per size class, every output checked to decode to its body.
func ownVerdicts(t *testing.T, coding string, level int) []ownVerdict {
	t.Helper()
	bodies, err := corpus.Bodies()
	if err != nil {
		t.Fatal(err)
	}
	type acc struct {
		n      int
		logSum float64
	}
	var out []ownVerdict
	for _, class := range ownSizeClasses {
		lower := 0
		if i := slices.Index(ownSizeClasses, class); i > 0 {
			lower = ownSizeClasses[i-1]
		}
		v := ownVerdict{coding: coding, level: level, class: class}
		perKind := map[string]*acc{}
		for _, b := range bodies {
			if len(b.Data) <= lower || len(b.Data) > class {
				continue
			}
			own := ownEncodeFor(coding, b.Data, level)
			checkDecodes(t, b.Name(), coding, own, b.Data)
			lib := libraryEncode(t, coding, b.Data, level)
			r := float64(len(own)) / float64(len(lib))
			a := perKind[b.Kind]
			if a == nil {
				a = new(acc)
				perKind[b.Kind] = a
			}
			a.n++
			a.logSum += math.Log(r)
			if len(b.Data) >= ownWorstFrom && r > v.worst {
				v.worst, v.worstBody = r, b.Name()
			}
		}
		v.passes = true
		for k, a := range perKind {
			g := math.Exp(a.logSum / float64(a.n))
			v.kinds = append(v.kinds, kindRatio{k, a.n, g})
			if g > ownGeomeanBound {
				v.passes = false
				v.failsReason += fmt.Sprintf(" %s geomean %+.1f %%;", k, 100*(g-1))
			}
		}
		slices.SortFunc(v.kinds, func(a, b kindRatio) int { return strings.Compare(a.kind, b.kind) })
		if v.worst > ownWorstBound {
			v.passes = false
			v.failsReason += fmt.Sprintf(" %s %+.1f %%;", v.worstBody, 100*(v.worst-1))
		}
		out = append(out, v)
	}
	return out
}

// ruleTable formats verdicts as docs/performance.md's table of the rule:
// per coding, level and size class, the worst kind's geomean, the worst
// body of 1 KiB or more, and the verdict.
func ruleTable(vs []ownVerdict) string {
	var b strings.Builder
	b.WriteString("| coding | level | bodies | worst kind: geomean | kinds over +1 % | worst body ≥ 1 KiB | own serves |\n|---|---|---|---|---|---|---|\n")
	for _, v := range vs {
		worstKind := slices.MaxFunc(v.kinds, func(a, b kindRatio) int { return cmpFloat(a.geomean, b.geomean) })
		over := 0
		for _, k := range v.kinds {
			if k.geomean > ownGeomeanBound {
				over++
			}
		}
		worst := "–"
		if v.worstBody != "" {
			worst = fmt.Sprintf("%+.1f %% (%s)", 100*(v.worst-1), v.worstBody)
		}
		verdict := "no"
		if v.passes {
			verdict = "yes"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s %+.1f %% | %d of %d | %s | %s |\n", v.coding, v.level, classLabel(v.class),
			worstKind.kind, 100*(worstKind.geomean-1), over, len(v.kinds), worst, verdict)
	}
	return b.String()
}

// kindTable formats the verdicts of one coding and level, one per size
// class, as a table of every kind's geomean of own/library bytes per class.
func kindTable(vs []ownVerdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d, own/library bytes per kind (geomean):\n| kind |", vs[0].coding, vs[0].level)
	for _, v := range vs {
		fmt.Fprintf(&b, " %s |", classLabel(v.class))
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(vs)) + "\n")
	for _, k := range vs[0].kinds {
		fmt.Fprintf(&b, "| %s |", k.kind)
		for _, v := range vs {
			i := slices.IndexFunc(v.kinds, func(r kindRatio) bool { return r.kind == k.kind })
			if i < 0 {
				b.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&b, " %+.1f %% |", 100*(v.kinds[i].geomean-1))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// classLabel names a size class by the bodies it holds.
func classLabel(class int) string {
	i := slices.Index(ownSizeClasses, class)
	if i == 0 {
		return fmt.Sprintf("≤ %d KiB", class>>10)
	}
	return fmt.Sprintf("%d–%d KiB", ownSizeClasses[i-1]>>10, class>>10)
}

// DESIGN "A level means the library's trade-off": for each (coding, level)
// the own encoders are candidates for, the largest body own.go sends to the
// own encoder is what the corpus's byte verdicts give (every size class up
// to it passes, the next one does not), capped by the time bound that the
// benchmarks give (ownTimeMaxBody). The table of verdicts is logged with -v.
func TestOwnEncoderRule(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes the corpus at every candidate level; runs without -short")
	}
	t.Parallel()
	var all []ownVerdict
	var perKind strings.Builder
	for _, coding := range []string{"gzip", "zstd", "br"} {
		for _, level := range ownCandidateLevels(coding) {
			vs := ownVerdicts(t, coding, level)
			all = append(all, vs...)
			perKind.WriteString(kindTable(vs) + "\n")
			bytesMax := 0
			for _, v := range vs {
				if !v.passes {
					break
				}
				bytesMax = v.class
			}
			want := min(bytesMax, ownTimeMaxBody(coding, level))
			if got := ownMaxBody(coding, level); got != want {
				var why strings.Builder
				for _, v := range vs {
					if !v.passes {
						fmt.Fprintf(&why, "\n  %s fails:%s", classLabel(v.class), v.failsReason)
					}
				}
				t.Errorf("%s level %d: own.go sends bodies of up to %d bytes to the own encoder; the rule gives %d (bytes: %d, time: %d)%s",
					coding, level, got, want, bytesMax, ownTimeMaxBody(coding, level), why.String())
			}
		}
	}
	t.Log("the rule's byte verdicts:\n" + ruleTable(all) + "\n" + perKind.String())
}
