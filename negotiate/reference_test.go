package negotiate

import (
	"regexp"
	"strconv"
	"strings"
)

// This file holds a slow, plainly written model of RFC 9110 §12.5.3 that the
// tests and the fuzz target hold the allocation-free code to. It shares no
// code with it: elements are split with a state machine that builds strings,
// matched with regular expressions, and weighed from a map.

var (
	tokenRE   = `[!#$%&'*+\-.^_` + "`" + `|~0-9A-Za-z]+`
	quotedRE  = `"(?s:[^"\\]|\\.)*"`
	elementRE = regexp.MustCompile(`^[ \t]*(` + tokenRE + `)((?:[ \t]*;[ \t]*` + tokenRE + `=(?:` + tokenRE + `|` + quotedRE + `))*)[ \t]*$`)
	paramRE   = regexp.MustCompile(`;[ \t]*(` + tokenRE + `)=(` + tokenRE + `|` + quotedRE + `)`)
	qvalueRE  = regexp.MustCompile(`^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$`)
)

type refElement struct {
	coding string // lower case, x- aliases folded
	q      int
}

func refSplit(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, escaped := false, false
	for _, r := range []byte(line) {
		switch {
		case escaped:
			escaped = false
		case quoted && r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(r)
	}
	return append(out, cur.String())
}

func refParse(lines []string) []refElement {
	var out []refElement
	for _, line := range lines {
		for _, e := range refSplit(line) {
			m := elementRE.FindStringSubmatch(e)
			if m == nil {
				continue
			}
			q, bad, seen := 1000, false, 0
			for _, p := range paramRE.FindAllStringSubmatch(m[2], -1) {
				if strings.ToLower(p[1]) != "q" {
					continue
				}
				seen++
				if !qvalueRE.MatchString(p[2]) {
					bad = true
					continue
				}
				f, _ := strconv.ParseFloat(p[2], 64)
				q = int(f*1000 + 0.5)
			}
			if bad || seen > 1 {
				continue
			}
			out = append(out, refElement{refCanonical(m[1]), q})
		}
	}
	return out
}

func refCanonical(c string) string {
	c = strings.ToLower(c)
	switch c {
	case "x-gzip":
		return "gzip"
	case "x-compress":
		return "compress"
	case "":
		return "identity"
	}
	return c
}

// refQuality returns the weight of coding and whether the client listed it
// (for identity: whether it is listed explicitly).
func refQuality(elems []refElement, coding string) (q int, listed bool) {
	coding = refCanonical(coding)
	weights := map[string]int{}
	for _, e := range elems {
		if _, dup := weights[e.coding]; !dup {
			weights[e.coding] = e.q
		}
	}
	if q, ok := weights[coding]; ok {
		return q, true
	}
	star, hasStar := weights["*"]
	if coding == "identity" && !hasStar {
		return 1, false
	}
	if hasStar && coding != "dcz" && coding != "dcb" {
		return star, true
	}
	return 0, false
}

func refSelect(lines []string, offers []string) (string, bool) {
	elems := refParse(lines)
	best, bestQ := "", 0
	for _, o := range offers {
		q, listed := refQuality(elems, o)
		if refCanonical(o) == "identity" && !listed {
			q = 0 // an implicit identity offer never beats anything
		}
		if q > bestQ {
			best, bestQ = o, q
		}
	}
	idQ, idListed := refQuality(elems, "identity")
	if bestQ == 0 || idListed && idQ > bestQ {
		return "", idQ > 0
	}
	if refCanonical(best) == "identity" {
		return "", true
	}
	return best, true
}
