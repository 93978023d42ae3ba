package wsdeflate

import (
	"errors"
	"fmt"
	"strings"
)

// An Offer is one element of a Sec-WebSocket-Extensions header: an extension
// name and its parameters in the order they appeared (RFC 6455 §9.1).
type Offer struct {
	Name   string
	Params []Param
}

// A Param is one extension parameter. Value is empty for a parameter given
// without a value; a quoted value is stored unquoted.
type Param struct {
	Name  string
	Value string
}

// errSyntax reports a Sec-WebSocket-Extensions value that breaks the
// RFC 6455 §9.1 grammar.
var errSyntax = errors.New("wsdeflate: malformed Sec-WebSocket-Extensions")

// ParseExtensions parses the values of every Sec-WebSocket-Extensions header
// line, in order, into offers (RFC 6455 §9.1). Elements that break the grammar
// are skipped, so one bad element does not hide the others; the returned error
// then reports the first of them. A server may ignore the error (a bad offer
// is declined, RFC 7692 §5); a client validating a response must not.
func ParseExtensions(values []string) ([]Offer, error) {
	var offers []Offer
	var firstErr error
	for _, v := range values {
		for s := v; ; {
			o, rest, err := parseElement(s)
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("%w: %q", errSyntax, v)
				}
				rest = skipElement(s)
			} else if o.Name != "" {
				offers = append(offers, o)
			}
			if rest == "" {
				break
			}
			s = rest[1:] // drop the ','
		}
	}
	return offers, firstErr
}

// parseElement parses one list element from s and returns the remainder,
// which is empty or starts with the ',' that ended the element. An empty
// element (RFC 9110 §5.6.1 allows them in lists) yields a zero Offer.
func parseElement(s string) (o Offer, rest string, err error) {
	s = trimOWS(s)
	if s == "" || s[0] == ',' {
		return Offer{}, s, nil
	}
	o.Name, s = token(s)
	if o.Name == "" {
		return Offer{}, "", errSyntax
	}
	for {
		s = trimOWS(s)
		if s == "" || s[0] == ',' {
			return o, s, nil
		}
		if s[0] != ';' {
			return Offer{}, "", errSyntax
		}
		var p Param
		p.Name, s = token(trimOWS(s[1:]))
		if p.Name == "" {
			return Offer{}, "", errSyntax
		}
		s = trimOWS(s)
		if s != "" && s[0] == '=' {
			s = trimOWS(s[1:])
			if s != "" && s[0] == '"' {
				p.Value, s, err = quoted(s)
				if err != nil {
					return Offer{}, "", err
				}
				// RFC 6455 §9.1: an unescaped quoted value must still be a token.
				if t, r := token(p.Value); t == "" || r != "" {
					return Offer{}, "", errSyntax
				}
			} else if p.Value, s = token(s); p.Value == "" {
				return Offer{}, "", errSyntax
			}
		}
		o.Params = append(o.Params, p)
	}
}

// skipElement returns s from the first ',' outside a quoted string, or ""
// when there is none.
func skipElement(s string) string {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == ',':
			return s[i:]
		}
	}
	return ""
}

// token splits a leading RFC 9110 §5.6.2 token off s.
func token(s string) (tok, rest string) {
	i := 0
	for i < len(s) && isTokenChar(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// quoted reads an RFC 9110 §5.6.4 quoted-string at the start of s and
// returns it unescaped.
func quoted(s string) (val, rest string, err error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:], nil
		case '\\':
			i++
			if i == len(s) {
				return "", "", errSyntax
			}
			b.WriteByte(s[i])
		default:
			if c < 0x20 && c != '\t' || c == 0x7f {
				return "", "", errSyntax
			}
			b.WriteByte(c)
		}
	}
	return "", "", errSyntax
}

func trimOWS(s string) string {
	return strings.TrimLeft(s, " \t")
}

// isTokenChar reports whether c is a tchar (RFC 9110 §5.6.2).
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// String formats o as a Sec-WebSocket-Extensions element. Values are
// written as they are, so they must be tokens, as ParseExtensions returns.
func (o Offer) String() string {
	var b strings.Builder
	b.WriteString(o.Name)
	for _, p := range o.Params {
		b.WriteString("; ")
		b.WriteString(p.Name)
		if p.Value != "" {
			b.WriteByte('=')
			b.WriteString(p.Value)
		}
	}
	return b.String()
}
