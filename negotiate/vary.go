package negotiate

import "net/http"

// AddVary adds each of fields to h's Vary header unless it is already there,
// compared without regard to case across all Vary lines (RFC 9110 §12.5.5).
// A Vary of "*" already says the response varies on everything, so it is
// left alone. New names are appended to the last Vary line, so the header
// stays one line when it was one.
func AddVary(h http.Header, fields ...string) {
	lines := h["Vary"]
	for _, field := range fields {
		if varies(lines, "*") || varies(lines, field) {
			continue
		}
		if n := len(lines); n > 0 && trimOWS(lines[n-1]) != "" {
			lines[n-1] += ", " + field
		} else if n > 0 {
			lines[n-1] = field
		} else {
			lines = []string{field}
		}
	}
	if lines != nil {
		h["Vary"] = lines
	}
}

// varies reports whether the Vary lines list name.
func varies(lines []string, name string) bool {
	for _, line := range lines {
		for line != "" {
			var elem string
			elem, line = cutComma(line)
			if equalFold(trimOWS(elem), name) {
				return true
			}
		}
	}
	return false
}

func cutComma(s string) (before, after string) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}
