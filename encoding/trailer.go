package encoding

import (
	"net/http"
	"strings"
)

// hasTrailers reports whether h declares trailers, in a Trailer field or
// by a key with http.TrailerPrefix.
func hasTrailers(h http.Header) bool {
	for k := range h {
		if k == "Trailer" || strings.HasPrefix(k, http.TrailerPrefix) {
			return true
		}
	}
	return false
}

// writeHeader sends the status and h. The middleware sends headers late,
// often after the handler returned, when it may have set the values of the
// trailers it declared in a Trailer field: those are held out of the header
// section and put back, for net/http to send after the body, as it would
// have without the middleware (RFC 9110 §6.5). net/http keeps what
// WriteHeader saw as the header and reads trailers from h at the end, over
// HTTP/1.1 and HTTP/2 alike.
func (w *responseWriter) writeHeader(h http.Header, code int) {
	declared := h["Trailer"]
	if declared == nil {
		w.rw.WriteHeader(code)
		return
	}
	var held http.Header
	forEachTrailer(declared, func(key string) {
		if v, ok := h[key]; ok {
			if held == nil {
				held = make(http.Header)
			}
			held[key] = v
			delete(h, key)
		}
	})
	w.rw.WriteHeader(code)
	for k, v := range held {
		h[k] = v
	}
}

// dropTrailers removes the trailers h declares, and their declaration, from
// the header of a response without a body, which cannot carry them.
func dropTrailers(h http.Header) {
	forEachTrailer(h["Trailer"], func(key string) { delete(h, key) })
	for k := range h {
		if k == "Trailer" || strings.HasPrefix(k, http.TrailerPrefix) {
			delete(h, k)
		}
	}
}

// forEachTrailer calls f with the canonical key of each field that the
// Trailer field lines declare, except those net/http never sends as
// trailers.
func forEachTrailer(lines []string, f func(key string)) {
	for _, line := range lines {
		for name := range strings.SplitSeq(line, ",") {
			key := http.CanonicalHeaderKey(strings.TrimSpace(name))
			switch key {
			case "", "Transfer-Encoding", "Trailer", "Content-Length":
				continue
			}
			f(key)
		}
	}
}
