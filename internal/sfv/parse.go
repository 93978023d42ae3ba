// Package sfv parses and serializes HTTP Structured Field Values
// (RFC 9651, which obsoletes RFC 8941 and adds Dates and Display Strings),
// as strictly as the RFC's parsing algorithms ask: any deviation fails the
// whole field, which the caller must then ignore (RFC 9651 §4.2).
// Compression Dictionary Transport (RFC 9842) is its user:
// Available-Dictionary is a Byte Sequence, Dictionary-ID a String,
// Use-As-Dictionary a Dictionary.
package sfv

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a structured-field value.
type Kind uint8

// The kinds of value: the bare item types of RFC 9651 §3.3, and the inner
// list of §3.1.1.
const (
	Integer Kind = iota + 1
	Decimal
	String
	Token
	Bytes
	Boolean
	Date
	DisplayString
	InnerList // only as a member of a List or a Dictionary
)

// Item is a bare item with its parameters, or an inner list.
type Item struct {
	Kind   Kind
	Num    int64  // Integer and Date; a Decimal in thousandths
	Str    string // String, Token, Display String
	Bytes  []byte // Byte Sequence
	Truth  bool   // Boolean
	Inner  []Item
	Params []Param
}

// Param is one parameter; its value is a bare item (no parameters).
type Param struct {
	Key   string
	Value Item
}

// Member is one member of a Dictionary.
type Member struct {
	Key   string
	Value Item
}

// ErrMalformed is the error of every field that does not parse, or of a
// value that cannot be serialized.
var ErrMalformed = errors.New("sfv: malformed structured field")

// parser holds the remaining input of one field value.
type parser struct{ s string }

// joinLines combines several field lines into one value, as RFC 9651 §4.2
// asks for Lists and Dictionaries.
func joinLines(lines []string) string { return strings.Join(lines, ",") }

// ParseItem parses an Item field (RFC 9651 §4.2.3), which must have one
// field line: a second one, joined with a comma, makes it fail.
func ParseItem(lines []string) (Item, error) {
	p := parser{s: joinLines(lines)}
	p.skipSP()
	it, err := p.item()
	if err != nil {
		return Item{}, err
	}
	return it, p.end()
}

// ParseList parses a List field (RFC 9651 §4.2.1).
func ParseList(lines []string) ([]Item, error) {
	p := parser{s: joinLines(lines)}
	p.skipSP()
	var out []Item
	for p.s != "" {
		it, err := p.itemOrInnerList()
		if err != nil {
			return nil, err
		}
		out = append(out, it)
		if done, err := p.nextMember(); done || err != nil {
			return out, err
		}
	}
	return out, nil
}

// ParseDictionary parses a Dictionary field (RFC 9651 §4.2.2). A key that
// appears again replaces the earlier value, keeping its place.
func ParseDictionary(lines []string) ([]Member, error) {
	p := parser{s: joinLines(lines)}
	p.skipSP()
	var out []Member
	for p.s != "" {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		var value Item
		if p.peek() == '=' {
			p.s = p.s[1:]
			if value, err = p.itemOrInnerList(); err != nil {
				return nil, err
			}
		} else {
			// A key alone is Boolean true with parameters (§4.2.2).
			value = Item{Kind: Boolean, Truth: true}
			if value.Params, err = p.params(); err != nil {
				return nil, err
			}
		}
		out = setMember(out, key, value)
		if done, err := p.nextMember(); done || err != nil {
			return out, err
		}
	}
	return out, nil
}

func setMember(ms []Member, key string, v Item) []Member {
	for i := range ms {
		if ms[i].Key == key {
			ms[i].Value = v
			return ms
		}
	}
	return append(ms, Member{key, v})
}

// nextMember consumes the separator after a List or Dictionary member. It
// reports done at the end of input and fails on a trailing comma.
func (p *parser) nextMember() (done bool, err error) {
	p.skipOWS()
	if p.s == "" {
		return true, nil
	}
	if p.s[0] != ',' {
		return true, ErrMalformed
	}
	p.s = p.s[1:]
	p.skipOWS()
	if p.s == "" {
		return true, ErrMalformed // RFC 9651 §4.2.1 step 3.6: trailing comma
	}
	return false, nil
}

func (p *parser) end() error {
	p.skipSP()
	if p.s != "" {
		return ErrMalformed
	}
	return nil
}

func (p *parser) peek() byte {
	if p.s == "" {
		return 0
	}
	return p.s[0]
}

func (p *parser) skipSP() { p.s = strings.TrimLeft(p.s, " ") }

func (p *parser) skipOWS() { p.s = strings.TrimLeft(p.s, " \t") }

func (p *parser) itemOrInnerList() (Item, error) {
	if p.peek() == '(' {
		return p.innerList()
	}
	return p.item()
}

// innerList parses RFC 9651 §4.2.1.2.
func (p *parser) innerList() (Item, error) {
	p.s = p.s[1:] // '('
	it := Item{Kind: InnerList}
	for {
		p.skipSP()
		if p.peek() == ')' {
			p.s = p.s[1:]
			var err error
			it.Params, err = p.params()
			return it, err
		}
		member, err := p.item()
		if err != nil {
			return Item{}, err
		}
		it.Inner = append(it.Inner, member)
		if c := p.peek(); c != ' ' && c != ')' {
			return Item{}, ErrMalformed
		}
	}
}

// item parses RFC 9651 §4.2.3: a bare item and its parameters.
func (p *parser) item() (Item, error) {
	it, err := p.bareItem()
	if err != nil {
		return Item{}, err
	}
	it.Params, err = p.params()
	return it, err
}

// params parses RFC 9651 §4.2.3.2.
func (p *parser) params() ([]Param, error) {
	var out []Param
	for p.peek() == ';' {
		p.s = p.s[1:]
		p.skipSP()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		value := Item{Kind: Boolean, Truth: true}
		if p.peek() == '=' {
			p.s = p.s[1:]
			if value, err = p.bareItem(); err != nil {
				return nil, err
			}
		}
		replaced := false
		for i := range out {
			if out[i].Key == key {
				out[i].Value, replaced = value, true
			}
		}
		if !replaced {
			out = append(out, Param{key, value})
		}
	}
	return out, nil
}

// key parses RFC 9651 §4.2.3.3: lcalpha or "*", then lcalpha, DIGIT, "_",
// "-", "." or "*".
func (p *parser) key() (string, error) {
	if c := p.peek(); !(c >= 'a' && c <= 'z' || c == '*') {
		return "", ErrMalformed
	}
	n := 1
	for n < len(p.s) && isKeyChar(p.s[n]) {
		n++
	}
	key := p.s[:n]
	p.s = p.s[n:]
	return key, nil
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*'
}

// bareItem parses RFC 9651 §4.2.3.1, choosing the type by the first byte.
func (p *parser) bareItem() (Item, error) {
	switch c := p.peek(); {
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == '"':
		return p.quoted()
	case c == ':':
		return p.byteSequence()
	case c == '?':
		return p.boolean()
	case c == '@':
		p.s = p.s[1:]
		it, err := p.number()
		if err != nil || it.Kind != Integer {
			return Item{}, ErrMalformed // §4.2.9: a Date is an Integer
		}
		it.Kind = Date
		return it, nil
	case c == '%':
		return p.displayString()
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '*':
		return p.token(), nil
	}
	return Item{}, ErrMalformed
}

// number parses an Integer or Decimal (RFC 9651 §4.2.4): at most 15 digits
// for an Integer, 12 before and 1 to 3 after the point for a Decimal.
func (p *parser) number() (Item, error) {
	neg := p.peek() == '-'
	s := p.s
	if neg {
		s = s[1:]
	}
	n, point := 0, -1
	for n < len(s) {
		c := s[n]
		if c == '.' && point < 0 && n > 0 {
			if n > 12 {
				return Item{}, ErrMalformed
			}
			point = n
		} else if c < '0' || c > '9' {
			break
		}
		n++
		if point < 0 && n > 15 || point >= 0 && n > 16 {
			return Item{}, ErrMalformed
		}
	}
	if n == 0 {
		return Item{}, ErrMalformed // "-" alone, or not a digit
	}
	digits := s[:n]
	p.s = s[n:]
	if point < 0 {
		v, _ := strconv.ParseInt(digits, 10, 64) // at most 15 digits: no overflow
		if neg {
			v = -v
		}
		return Item{Kind: Integer, Num: v}, nil
	}
	frac := len(digits) - point - 1
	if frac < 1 || frac > 3 {
		return Item{}, ErrMalformed // §4.2.4 steps 7.6, 9.2
	}
	whole, _ := strconv.ParseInt(digits[:point], 10, 64)
	part, _ := strconv.ParseInt(digits[point+1:]+"00"[:3-frac], 10, 64)
	v := whole*1000 + part
	if neg {
		v = -v
	}
	return Item{Kind: Decimal, Num: v}, nil
}

// quoted parses a String (RFC 9651 §4.2.5): visible ASCII and space, with
// only \" and \\ as escapes.
func (p *parser) quoted() (Item, error) {
	var b strings.Builder
	for i := 1; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '\\':
			i++
			if i == len(p.s) || p.s[i] != '"' && p.s[i] != '\\' {
				return Item{}, ErrMalformed
			}
			b.WriteByte(p.s[i])
		case c == '"':
			p.s = p.s[i+1:]
			return Item{Kind: String, Str: b.String()}, nil
		case c < 0x20 || c > 0x7e:
			return Item{}, ErrMalformed
		default:
			b.WriteByte(c)
		}
	}
	return Item{}, ErrMalformed // unterminated
}

// token parses RFC 9651 §4.2.6: tchar, ":" and "/" after the first byte.
func (p *parser) token() Item {
	n := 1
	for n < len(p.s) && (isTchar(p.s[n]) || p.s[n] == ':' || p.s[n] == '/') {
		n++
	}
	it := Item{Kind: Token, Str: p.s[:n]}
	p.s = p.s[n:]
	return it
}

// isTchar reports RFC 9110 §5.6.2's tchar.
func isTchar(c byte) bool {
	if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// byteSequence parses RFC 9651 §4.2.7. As §4.2.7 recommends, missing "="
// padding and non-zero pad bits are accepted; anything outside the base64
// alphabet is not.
func (p *parser) byteSequence() (Item, error) {
	end := strings.IndexByte(p.s[1:], ':')
	if end < 0 {
		return Item{}, ErrMalformed
	}
	text := p.s[1 : 1+end]
	for i := 0; i < len(text); i++ {
		if c := text[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return Item{}, ErrMalformed
		}
	}
	enc := base64.RawStdEncoding
	if strings.IndexByte(text, '=') >= 0 {
		enc = base64.StdEncoding
	}
	b, err := enc.DecodeString(text)
	if err != nil {
		return Item{}, ErrMalformed
	}
	p.s = p.s[2+end:]
	return Item{Kind: Bytes, Bytes: b}, nil
}

// boolean parses RFC 9651 §4.2.8: ?0 or ?1.
func (p *parser) boolean() (Item, error) {
	if len(p.s) < 2 || p.s[1] != '0' && p.s[1] != '1' {
		return Item{}, ErrMalformed
	}
	it := Item{Kind: Boolean, Truth: p.s[1] == '1'}
	p.s = p.s[2:]
	return it, nil
}

// displayString parses RFC 9651 §4.2.10: %"..." with lower-case
// percent-encoded bytes that must form valid UTF-8.
func (p *parser) displayString() (Item, error) {
	if len(p.s) < 2 || p.s[1] != '"' {
		return Item{}, ErrMalformed
	}
	var b []byte
	for i := 2; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '%':
			if i+2 >= len(p.s) || !isLowerHex(p.s[i+1]) || !isLowerHex(p.s[i+2]) {
				return Item{}, ErrMalformed
			}
			v, _ := strconv.ParseUint(p.s[i+1:i+3], 16, 8)
			b = append(b, byte(v))
			i += 2
		case c == '"':
			if !utf8.Valid(b) {
				return Item{}, ErrMalformed
			}
			p.s = p.s[i+1:]
			return Item{Kind: DisplayString, Str: string(b)}, nil
		case c < 0x20 || c > 0x7e:
			return Item{}, ErrMalformed
		default:
			b = append(b, c)
		}
	}
	return Item{}, ErrMalformed
}

func isLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
