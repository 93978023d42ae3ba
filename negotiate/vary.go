package negotiate

import "net/http"

// AddVary adds each of fields to h's Vary header unless it is already there,
// compared without regard to case across all Vary lines (RFC 9110 §12.5.5).
// A Vary of "*" already says the response varies on everything, so it is
// left alone. New names are appended to the last Vary line, so the header
// stays one line when it was one.
//
// The header's slice is replaced, never written in place, so a slice shared
// between responses (a preset header value) is safe to pass in.
func AddVary(h http.Header, fields ...string) {
	lines, changed := h["Vary"], false
	for _, field := range fields {
		if varies(lines, "*") || varies(lines, field) {
			continue
		}
		if !changed {
			lines, changed = append([]string(nil), lines...), true
		}
		if n := len(lines); n > 0 && trimOWS(lines[n-1]) != "" {
			lines[n-1] += ", " + field
		} else if n > 0 {
			lines[n-1] = field
		} else {
			lines = append(lines, field)
		}
	}
	if changed {
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
