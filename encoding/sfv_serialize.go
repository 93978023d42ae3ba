package encoding

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Serialization of structured fields (RFC 9651 §4.1), the inverse of the
// parsers in sfv.go: what it writes parses back to the same value, which
// the fuzz tests check.

// serializeSFDictionary serializes a Dictionary (RFC 9651 §4.1.2).
func serializeSFDictionary(ms []sfMember) (string, error) {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := writeKey(&b, m.key); err != nil {
			return "", err
		}
		if m.value.kind == sfBoolean && m.value.truth {
			// A true Boolean is written as the key alone (§4.1.2 step 1.3).
			if err := writeParams(&b, m.value.params); err != nil {
				return "", err
			}
			continue
		}
		b.WriteByte('=')
		if err := writeMember(&b, m.value); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// serializeSFList serializes a List (RFC 9651 §4.1.1).
func serializeSFList(items []sfItem) (string, error) {
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

// serializeSFItem serializes an Item (RFC 9651 §4.1.3).
func serializeSFItem(it sfItem) (string, error) {
	var b strings.Builder
	if it.kind == sfInnerList {
		return "", fmt.Errorf("%w: an inner list is not an item", errSF)
	}
	err := writeMember(&b, it)
	return b.String(), err
}

func writeMember(b *strings.Builder, it sfItem) error {
	if it.kind == sfInnerList {
		b.WriteByte('(')
		for i, m := range it.inner {
			if i > 0 {
				b.WriteByte(' ')
			}
			if m.kind == sfInnerList {
				return fmt.Errorf("%w: inner lists do not nest", errSF)
			}
			if err := writeBare(b, m); err != nil {
				return err
			}
			if err := writeParams(b, m.params); err != nil {
				return err
			}
		}
		b.WriteByte(')')
		return writeParams(b, it.params)
	}
	if err := writeBare(b, it); err != nil {
		return err
	}
	return writeParams(b, it.params)
}

func writeParams(b *strings.Builder, ps []sfParam) error {
	for _, p := range ps {
		b.WriteByte(';')
		if err := writeKey(b, p.key); err != nil {
			return err
		}
		if p.value.kind == sfBoolean && p.value.truth {
			continue
		}
		b.WriteByte('=')
		if err := writeBare(b, p.value); err != nil {
			return err
		}
	}
	return nil
}

func writeKey(b *strings.Builder, key string) error {
	if key == "" || !(key[0] >= 'a' && key[0] <= 'z' || key[0] == '*') {
		return fmt.Errorf("%w: invalid key %q", errSF, key)
	}
	for i := 1; i < len(key); i++ {
		if !isKeyChar(key[i]) {
			return fmt.Errorf("%w: invalid key %q", errSF, key)
		}
	}
	b.WriteString(key)
	return nil
}

// maxSFInteger is the largest magnitude of an Integer (RFC 9651 §3.3.1).
const maxSFInteger = 999_999_999_999_999

func writeBare(b *strings.Builder, it sfItem) error {
	switch it.kind {
	case sfInteger, sfDate:
		if it.num > maxSFInteger || it.num < -maxSFInteger {
			return fmt.Errorf("%w: integer %d out of range", errSF, it.num)
		}
		if it.kind == sfDate {
			b.WriteByte('@')
		}
		b.WriteString(strconv.FormatInt(it.num, 10))
	case sfDecimal:
		// Thousandths: 12 digits before the point at most (§4.1.5).
		if it.num > 999_999_999_999_999 || it.num < -999_999_999_999_999 {
			return fmt.Errorf("%w: decimal out of range", errSF)
		}
		v := it.num
		if v < 0 {
			b.WriteByte('-')
			v = -v
		}
		frac := strings.TrimRight(fmt.Sprintf("%03d", v%1000), "0")
		if frac == "" {
			frac = "0"
		}
		b.WriteString(strconv.FormatInt(v/1000, 10) + "." + frac)
	case sfString:
		return writeString(b, it.str)
	case sfToken:
		if it.str == "" || !(it.str[0] >= 'A' && it.str[0] <= 'Z' || it.str[0] >= 'a' && it.str[0] <= 'z' || it.str[0] == '*') {
			return fmt.Errorf("%w: invalid token %q", errSF, it.str)
		}
		for i := 1; i < len(it.str); i++ {
			if c := it.str[i]; !isTchar(c) && c != ':' && c != '/' {
				return fmt.Errorf("%w: invalid token %q", errSF, it.str)
			}
		}
		b.WriteString(it.str)
	case sfBytes:
		b.WriteByte(':')
		b.WriteString(base64.StdEncoding.EncodeToString(it.bytes))
		b.WriteByte(':')
	case sfBoolean:
		if it.truth {
			b.WriteString("?1")
		} else {
			b.WriteString("?0")
		}
	case sfDisplayString:
		if !utf8.ValidString(it.str) {
			return fmt.Errorf("%w: display string is not UTF-8", errSF)
		}
		b.WriteString(`%"`)
		for i := 0; i < len(it.str); i++ {
			if c := it.str[i]; c == '%' || c == '"' || c < 0x20 || c > 0x7e {
				fmt.Fprintf(b, "%%%02x", c)
			} else {
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
	default:
		return fmt.Errorf("%w: unknown item type %d", errSF, it.kind)
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
			return fmt.Errorf("%w: string holds byte %#x, outside visible ASCII", errSF, c)
		}
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return nil
}
