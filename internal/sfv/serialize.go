package sfv

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Serialization of structured fields (RFC 9651 §4.1), the inverse of the
// parsers in parse.go: what it writes parses back to the same value, which
// the fuzz tests check.

// SerializeDictionary serializes a Dictionary (RFC 9651 §4.1.2).
func SerializeDictionary(ms []Member) (string, error) {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := writeKey(&b, m.Key); err != nil {
			return "", err
		}
		if m.Value.Kind == Boolean && m.Value.Truth {
			// A true Boolean is written as the key alone (§4.1.2 step 1.3).
			if err := writeParams(&b, m.Value.Params); err != nil {
				return "", err
			}
			continue
		}
		b.WriteByte('=')
		if err := writeMember(&b, m.Value); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// SerializeList serializes a List (RFC 9651 §4.1.1).
func SerializeList(items []Item) (string, error) {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := writeMember(&b, it); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// SerializeItem serializes an Item (RFC 9651 §4.1.3).
func SerializeItem(it Item) (string, error) {
	var b strings.Builder
	if it.Kind == InnerList {
		return "", fmt.Errorf("%w: an inner list is not an item", ErrMalformed)
	}
	err := writeMember(&b, it)
	return b.String(), err
}

func writeMember(b *strings.Builder, it Item) error {
	if it.Kind == InnerList {
		b.WriteByte('(')
		for i, m := range it.Inner {
			if i > 0 {
				b.WriteByte(' ')
			}
			if m.Kind == InnerList {
				return fmt.Errorf("%w: inner lists do not nest", ErrMalformed)
			}
			if err := writeBare(b, m); err != nil {
				return err
			}
			if err := writeParams(b, m.Params); err != nil {
				return err
			}
		}
		b.WriteByte(')')
		return writeParams(b, it.Params)
	}
	if err := writeBare(b, it); err != nil {
		return err
	}
	return writeParams(b, it.Params)
}

func writeParams(b *strings.Builder, ps []Param) error {
	for _, p := range ps {
		b.WriteByte(';')
		if err := writeKey(b, p.Key); err != nil {
			return err
		}
		if p.Value.Kind == Boolean && p.Value.Truth {
			continue
		}
		b.WriteByte('=')
		if err := writeBare(b, p.Value); err != nil {
			return err
		}
	}
	return nil
}

func writeKey(b *strings.Builder, key string) error {
	if key == "" || !(key[0] >= 'a' && key[0] <= 'z' || key[0] == '*') {
		return fmt.Errorf("%w: invalid key %q", ErrMalformed, key)
	}
	for i := 1; i < len(key); i++ {
		if !isKeyChar(key[i]) {
			return fmt.Errorf("%w: invalid key %q", ErrMalformed, key)
		}
	}
	b.WriteString(key)
	return nil
}

// maxSFInteger is the largest magnitude of an Integer (RFC 9651 §3.3.1).
const maxSFInteger = 999_999_999_999_999

func writeBare(b *strings.Builder, it Item) error {
	switch it.Kind {
	case Integer, Date:
		if it.Num > maxSFInteger || it.Num < -maxSFInteger {
			return fmt.Errorf("%w: integer %d out of range", ErrMalformed, it.Num)
		}
		if it.Kind == Date {
			b.WriteByte('@')
		}
		b.WriteString(strconv.FormatInt(it.Num, 10))
	case Decimal:
		// Thousandths: 12 digits before the point at most (§4.1.5).
		if it.Num > 999_999_999_999_999 || it.Num < -999_999_999_999_999 {
			return fmt.Errorf("%w: decimal out of range", ErrMalformed)
		}
		v := it.Num
		if v < 0 {
			b.WriteByte('-')
			v = -v
		}
		frac := strings.TrimRight(fmt.Sprintf("%03d", v%1000), "0")
		if frac == "" {
			frac = "0"
		}
		b.WriteString(strconv.FormatInt(v/1000, 10) + "." + frac)
	case String:
		return writeString(b, it.Str)
	case Token:
		if it.Str == "" || !(it.Str[0] >= 'A' && it.Str[0] <= 'Z' || it.Str[0] >= 'a' && it.Str[0] <= 'z' || it.Str[0] == '*') {
			return fmt.Errorf("%w: invalid token %q", ErrMalformed, it.Str)
		}
		for i := 1; i < len(it.Str); i++ {
			if c := it.Str[i]; !isTchar(c) && c != ':' && c != '/' {
				return fmt.Errorf("%w: invalid token %q", ErrMalformed, it.Str)
			}
		}
		b.WriteString(it.Str)
	case Bytes:
		b.WriteByte(':')
		b.WriteString(base64.StdEncoding.EncodeToString(it.Bytes))
		b.WriteByte(':')
	case Boolean:
		if it.Truth {
			b.WriteString("?1")
		} else {
			b.WriteString("?0")
		}
	case DisplayString:
		if !utf8.ValidString(it.Str) {
			return fmt.Errorf("%w: display string is not UTF-8", ErrMalformed)
		}
		b.WriteString(`%"`)
		for i := 0; i < len(it.Str); i++ {
			if c := it.Str[i]; c == '%' || c == '"' || c < 0x20 || c > 0x7e {
				fmt.Fprintf(b, "%%%02x", c)
			} else {
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
	default:
		return fmt.Errorf("%w: unknown item type %d", ErrMalformed, it.Kind)
	}
	return nil
}

// writeString serializes a String (RFC 9651 §4.1.6): only visible ASCII and
// space can be sent, with " and \ escaped.
func writeString(b *strings.Builder, s string) error {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e {
			return fmt.Errorf("%w: string holds byte %#x, outside visible ASCII", ErrMalformed, c)
		}
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return nil
}
