package encoding

import (
	"net/http"
	"strings"
)

// adjustETag makes a strong ETag differ per coding, as RFC 9110 §8.8.3.3
// requires: the compressed bytes are another representation.
func (w *responseWriter) adjustETag(h http.Header) {
	etag := h.Get("Etag")
	if !isStrongETag(etag) {
		return // weak, absent or malformed: a weak validator may be shared
	}
	switch w.s.etag {
	case ETagSuffix:
		h.Set("Etag", etag[:len(etag)-1]+w.offer.etagSuffix)
	case ETagWeaken:
		h.Set("Etag", "W/"+etag)
	}
}

func isStrongETag(etag string) bool {
	return len(etag) >= 2 && etag[0] == '"' && etag[len(etag)-1] == '"'
}

// stripETagSuffixes undoes adjustETag in the request's conditional headers,
// so that the handler compares the client's validators with its own. Only
// the suffix of the coding this response would be in is removed: a tag of
// another coding names a representation this response is not.
//
// A range of the compressed bytes cannot be served (206 goes out as
// identity), so an If-Range naming the compressed representation drops the
// Range too, and the client gets the whole body (RFC 9110 §13.1.5).
//
// It returns r itself when nothing needed changing, which is the common case
// and costs no allocation.
func (w *responseWriter) stripETagSuffixes(r *http.Request) *http.Request {
	suffix := w.offer.etagSuffix
	var header http.Header
	for _, name := range [...]string{"If-None-Match", "If-Match", "If-Range"} {
		lines := r.Header[name]
		if !containsSuffix(lines, suffix) {
			continue
		}
		if header == nil {
			header = r.Header.Clone()
		}
		w.stripped = true
		if name == "If-Range" {
			delete(header, "If-Range")
			delete(header, "Range")
			continue
		}
		stripped := make([]string, len(lines))
		for i, line := range lines {
			stripped[i] = strings.ReplaceAll(line, suffix, `"`)
		}
		header[name] = stripped
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
