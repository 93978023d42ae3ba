package negotiate

import "net/http"

// AddVary adds each of fields to h's Vary header unless it is already there,
// compared without regard to case across all Vary lines (RFC 9110 §12.5.5).
// A Vary of "*" already says the response varies on everything, so it is
// left alone. New names are appended to the last Vary line, so the header
// stays one line when it was one.
//
// The header's slice is replaced, never written in place, so a slice shared
// between responses (a preset header value) is safe to pass in. A response
// without Vary that varies on Accept-Encoding alone, as most compressed
// ones do, gets a value shared by them all, allocating nothing: code that
// changes Vary afterwards replaces its lines (as AddVary and Header.Set
// do), never writes into them.
func AddVary(h http.Header, fields ...string) {
	lines, changed := h["Vary"], false
	if len(lines) == 0 && len(fields) == 1 && fields[0] == "Accept-Encoding" {
		h["Vary"] = varyAcceptEncoding
		return
	}
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

// varyAcceptEncoding is the Vary value most responses get, shared: its
// capacity of one makes an append copy it, and AddVary replaces rather
// than edits.
var varyAcceptEncoding = []string{"Accept-Encoding"}[:1:1]

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
