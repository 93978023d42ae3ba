// Package httpfield reads the HTTP field values that more than one squeeze
// package looks at: comma-separated token lists (Connection, Upgrade,
// Cache-Control) and the media type of a Content-Type.
package httpfield

import (
	"strings"
	"unicode/utf8"
)

// HasToken reports whether the comma-separated field lines list token,
// compared without regard to case (RFC 9110 §5.6.1, §5.6.2). It allocates
// nothing.
func HasToken(lines []string, token string) bool {
	for _, v := range lines {
		for v != "" {
			var elem string
			elem, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(strings.TrimSpace(elem), token) {
				return true
			}
		}
	}
	return false
}

// MediaType returns the lower-case type/subtype of a Content-Type value
// (RFC 9110 §8.3.1), without parameters or white space, allocating only for
// upper-case input.
func MediaType(contentType string) string {
	// A value with no parameter, space or upper case, the common
	// "application/json", is its own media type.
	for i := 0; i < len(contentType); i++ {
		c := contentType[i]
		if 'a' <= c && c <= 'z' {
			continue // most of the bytes, checked first
		}
		if c == ';' || c <= ' ' || c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return trimMediaType(contentType)
		}
	}
	return contentType
}

// trimMediaType is MediaType for a value that has something to remove or
// lower: parameters, white space (of which TrimSpace takes non-ASCII kinds
// too) or upper case.
func trimMediaType(contentType string) string {
	if i := strings.IndexByte(contentType, ';'); i >= 0 {
		contentType = contentType[:i]
	}
	contentType = strings.TrimSpace(contentType)
	for i := 0; i < len(contentType); i++ {
		if c := contentType[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(contentType)
		}
	}
	return contentType
}
