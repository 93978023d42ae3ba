package encoding

import (
	"net/http"
	"strings"
)

// adjustETag makes a strong ETag differ per coding in h, the header of a
// response the middleware compresses.
func (w *responseWriter) adjustETag(h http.Header) {
	if etag := first(h["Etag"]); etag != "" {
		if adjusted := w.adjustedETag(etag); adjusted != etag {
			h["Etag"] = []string{adjusted}
		}
	}
}

// adjustedETag returns the tag a response compressed in w's coding carries
// for the handler's etag, as RFC 9110 §8.8.3.3 requires of a strong
// validator: the compressed bytes are another representation.
func (w *responseWriter) adjustedETag(etag string) string {
	if !isStrongETag(etag) {
		return etag // weak, absent or malformed: a weak validator may be shared
	}
	switch w.s.etag {
	case ETagSuffix:
		if strings.HasSuffix(etag, w.offer.etagSuffix) {
			return etag // the handler tags its variants per coding already
		}
		return etag[:len(etag)-1] + w.offer.etagSuffix
	case ETagWeaken:
		return "W/" + etag
	}
	return etag
}

func isStrongETag(etag string) bool {
	return len(etag) >= 2 && etag[0] == '"' && etag[len(etag)-1] == '"'
}

// scanETag returns the first entity-tag in s (RFC 9110 §8.8.3), skipping
// the whitespace and commas of a list, and what follows it. ok is false at
// the end of s or at a malformed tag, where a list can no longer be read.
func scanETag(s string) (tag, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t,")
	start := s
	s = strings.TrimPrefix(s, "W/")
	if len(s) < 2 || s[0] != '"' {
		return "", "", false
	}
	// etagc excludes only '"' and controls: a comma may sit inside a tag.
	end := strings.IndexByte(s[1:], '"')
	if end < 0 {
		return "", "", false
	}
	n := len(start) - len(s) + end + 2
	return start[:n], start[n:], true
}

// opaque returns an entity-tag without its weakness indicator.
func opaque(tag string) string { return strings.TrimPrefix(tag, "W/") }

// isStar reports whether the field lines of If-None-Match or If-Match are
// "*", which any current representation matches.
func isStar(lines []string) bool {
	return len(lines) == 1 && strings.TrimSpace(lines[0]) == "*"
}

// listsETag reports whether the entity-tags in lines include one that
// matches etag: by the weak comparison (RFC 9110 §8.8.3.2), the same
// opaque tag, or by the strong one, the same strong tag.
func listsETag(lines []string, etag string, weak bool) bool {
	if etag == "" || !weak && !isStrongETag(etag) {
		return false
	}
	for _, line := range lines {
		for tag, rest, ok := scanETag(line); ok; tag, rest, ok = scanETag(rest) {
			switch {
			case weak && opaque(tag) == opaque(etag):
				return true
			case !weak && tag == etag:
				return true
			}
		}
	}
	return false
}

// conditionalRequest returns the request the handler sees, and notes what
// the middleware itself evaluates once the response is known.
//
// If-None-Match and If-Match name tags that adjustETag made: the handler
// sees them without the suffix of the coding this response is in, in one
// field line, so that a handler comparing the field with its own tag by
// string equality finds it. If-None-Match keeps the client's lines after
// that one, so that a handler that tags its variants per coding itself
// (precompressed) finds its own tag and answers 304 without reading what
// it would send (RFC 9110 §13.1.2: any listed tag that matches counts, and
// both forms name the same representation). A tag of another coding is
// left as it is: it names a representation this response is not. If-Range
// is left alone: a handler's tag does not match the suffixed one, so it
// ignores the Range and sends the whole body, compressed, which is what a
// client holding part of the compressed representation needs (RFC 9110
// §13.1.5).
//
// With conditionals evaluated by the middleware (the default), a GET or
// HEAD request reaches the handler without If-Match, and without the
// If-Unmodified-Since that If-Match overrides (§13.2.2): the middleware
// compares If-Match with the response's final tag (see precondition). A
// handler that tags its variants per coding itself, as precompressed does,
// would otherwise see its own "x-br" as "x" and fail the request.
//
// It returns r itself when nothing needed changing, the common case, which
// costs no allocation.
func (w *responseWriter) conditionalRequest(r *http.Request) *http.Request {
	inm, im := r.Header["If-None-Match"], r.Header["If-Match"]
	if w.s.conditional && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		if inm != nil || r.Header["If-Modified-Since"] != nil {
			w.cond |= condNotModified
		}
		if im != nil {
			w.cond |= condIfMatch
		}
	}
	suffix := ""
	if o := w.choice.preferred(); o != nil && w.s.etag == ETagSuffix {
		suffix = o.etagSuffix
	}
	stripINM := suffix != "" && listsSuffix(inm, suffix)
	stripIM := w.cond&condIfMatch == 0 && suffix != "" && listsSuffix(im, suffix)
	if !stripINM && !stripIM && w.cond&condIfMatch == 0 {
		return r
	}
	header := r.Header.Clone()
	if stripINM {
		// The client's own lines follow the stripped one: r.Header.Get and
		// http.ServeContent read only the first, a handler that tags per
		// coding itself finds its "x-br" among the rest.
		header["If-None-Match"] = append([]string{stripSuffix(inm, suffix)}, inm...)
	}
	if stripIM {
		header["If-Match"] = []string{stripSuffix(im, suffix)}
	}
	if w.cond&condIfMatch != 0 {
		delete(header, "If-Match")
		delete(header, "If-Unmodified-Since")
	}
	r2 := new(http.Request)
	*r2 = *r
	r2.Header = header
	return r2
}

// listsSuffix reports whether lines name a tag that ends in suffix, the
// coding's suffix with the closing quote.
func listsSuffix(lines []string, suffix string) bool {
	for _, line := range lines {
		if !strings.Contains(line, suffix) {
			continue
		}
		for tag, rest, ok := scanETag(line); ok; tag, rest, ok = scanETag(rest) {
			if strings.HasSuffix(tag, suffix) {
				return true
			}
		}
	}
	return false
}

// stripSuffix returns the entity-tags of lines as one field line, with
// suffix taken off each tag that ends in it. A malformed rest is dropped,
// as a handler would stop reading there too.
func stripSuffix(lines []string, suffix string) string {
	var b strings.Builder
	for _, line := range lines {
		for tag, rest, ok := scanETag(line); ok; tag, rest, ok = scanETag(rest) {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			if strings.HasSuffix(tag, suffix) {
				b.WriteString(tag[:len(tag)-len(suffix)])
				b.WriteByte('"')
				continue
			}
			b.WriteString(tag)
		}
	}
	return b.String()
}
