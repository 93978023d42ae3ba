package encoding

import (
	"net/http"
	"strings"
)

// adjustETag makes a strong ETag differ per coding, as RFC 9110 §8.8.3.3
// requires: the compressed bytes are another representation.
func (w *responseWriter) adjustETag(h http.Header) {
	etag := first(h["Etag"])
	if !isStrongETag(etag) {
		return // weak, absent or malformed: a weak validator may be shared
	}
	switch w.s.etag {
	case ETagSuffix:
		if strings.HasSuffix(etag, w.offer.etagSuffix) {
			return // the handler tags its variants per coding already
		}
		h["Etag"] = []string{etag[:len(etag)-1] + w.offer.etagSuffix}
	case ETagWeaken:
		h["Etag"] = []string{"W/" + etag}
	}
}

func isStrongETag(etag string) bool {
	return len(etag) >= 2 && etag[0] == '"' && etag[len(etag)-1] == '"'
}

// stripETagSuffixes undoes adjustETag in If-None-Match and If-Match, so
// that the handler compares the client's validators with its own. The tags
// without the suffix are added to the list rather than put in place of the
// suffixed ones: a handler that tags its variants per coding itself (like
// precompressed) still finds its own tag. Only the suffix of the coding this
// response would be in is undone: a tag of another coding names a
// representation this response is not.
//
// If-Range is left alone: a handler's tag does not match the suffixed one,
// so it ignores the Range and sends the whole body, compressed, which is
// what a client holding part of the compressed representation needs
// (RFC 9110 §13.1.5).
//
// It returns r itself when nothing needed changing, which is the common case
// and costs no allocation.
func (w *responseWriter) stripETagSuffixes(r *http.Request) *http.Request {
	suffix := w.offer.etagSuffix
	var header http.Header
	for _, name := range [...]string{"If-None-Match", "If-Match"} {
		lines := r.Header[name]
		if !containsSuffix(lines, suffix) {
			continue
		}
		if header == nil {
			header = r.Header.Clone()
		}
		w.stripped = true
		widened := make([]string, len(lines))
		for i, line := range lines {
			widened[i] = line
			if strings.Contains(line, suffix) {
				// One line, since http.ServeContent reads only the first.
				widened[i] = line + ", " + strings.ReplaceAll(line, suffix, `"`)
			}
		}
		header[name] = widened
	}
	if header == nil {
		return r
	}
	r2 := new(http.Request)
	*r2 = *r
	r2.Header = header
	return r2
}

func containsSuffix(lines []string, suffix string) bool {
	for _, line := range lines {
		if strings.Contains(line, suffix) {
			return true
		}
	}
	return false
}
