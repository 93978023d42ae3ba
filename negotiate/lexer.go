package negotiate

// lexer walks the elements of an Accept-Encoding field without allocating:
//
//	Accept-Encoding = #( codings [ weight ] )             RFC 9110 §12.5.3
//	weight          = OWS ";" OWS "q=" qvalue             RFC 9110 §12.4.2
//	qvalue          = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
//
// Field lines are one list (RFC 9110 §5.3), empty elements are allowed
// (§5.6.1), and a malformed element is skipped rather than failing the field
// (§5.6.1.2). Parameters other than q are not in the grammar; they are
// accepted and ignored when well formed, with quoted-string values, so that a
// comma inside quotes does not split an element.
type lexer struct {
	lines []string
	line  string
	pos   int
}

// next returns the next well-formed element's coding and weight, or ok ==
// false at the end of the field.
func (l *lexer) next() (coding string, q int, ok bool) {
	for {
		for l.pos >= len(l.line) {
			if len(l.lines) == 0 {
				return "", 0, false
			}
			l.line, l.lines, l.pos = l.lines[0], l.lines[1:], 0
		}
		elem := l.element()
		if coding, q, ok := parseElement(elem); ok {
			return coding, q, true
		}
	}
}

// element returns the text up to the next comma outside a quoted string and
// moves past that comma.
func (l *lexer) element() string {
	s, start, quoted := l.line, l.pos, false
	for i := start; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++ // quoted-pair: the next octet is literal
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			l.pos = i + 1
			return s[start:i]
		}
	}
	l.pos = len(s)
	return s[start:]
}

// parseElement reads "coding *( OWS ; OWS name=value )". An empty element
// reports ok == false, as does any malformed one.
func parseElement(e string) (coding string, q int, ok bool) {
	e = trimOWS(e)
	n := tokenLen(e)
	if n == 0 {
		return "", 0, false
	}
	coding, e, q = e[:n], e[n:], MaxQuality
	seenQ := false
	for {
		e = trimLeftOWS(e)
		if e == "" {
			return coding, q, true
		}
		if e[0] != ';' {
			return "", 0, false
		}
		e = trimLeftOWS(e[1:])
		n = tokenLen(e)
		if n == 0 || n == len(e) || e[n] != '=' {
			return "", 0, false
		}
		name, rest := e[:n], e[n+1:]
		var value string
		if value, e, ok = paramValue(rest); !ok {
			return "", 0, false
		}
		if equalFold(name, "q") {
			if seenQ {
				return "", 0, false // two weights: which one the client meant is unknowable
			}
			seenQ = true
			if q, ok = parseQValue(value); !ok {
				return "", 0, false
			}
		}
	}
}

// paramValue splits a token or quoted-string value off the front of s.
func paramValue(s string) (value, rest string, ok bool) {
	if s != "" && s[0] == '"' {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return s[:i+1], s[i+1:], true
			}
		}
		return "", "", false
	}
	n := tokenLen(s)
	if n == 0 {
		return "", "", false
	}
	return s[:n], s[n:], true
}

// parseQValue parses an RFC 9110 §12.4.2 qvalue into thousandths.
func parseQValue(s string) (int, bool) {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	q := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return q, true
	}
	if s[1] != '.' {
		return 0, false
	}
	scale := 100
	for i := 2; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		q += int(d-'0') * scale
		scale /= 10
	}
	if q > MaxQuality {
		return 0, false // "1.5" and "1.001" are not qvalues
	}
	return q, true
}

// tokenLen returns the length of the RFC 9110 §5.6.2 token at the start of s.
func tokenLen(s string) int {
	for i := 0; i < len(s); i++ {
		if !isTchar(s[i]) {
			return i
		}
	}
	return len(s)
}

func isTchar(c byte) bool { return tchars[c] }

// tchars marks the bytes of RFC 9110 §5.6.2 tchar.
var tchars = func() (t [256]bool) {
	for _, c := range []byte("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t[c] = true
	}
	return t
}()

func isOWS(c byte) bool { return c == ' ' || c == '\t' }

func trimLeftOWS(s string) string {
	for s != "" && isOWS(s[0]) {
		s = s[1:]
	}
	return s
}

func trimOWS(s string) string {
	s = trimLeftOWS(s)
	for s != "" && isOWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}
