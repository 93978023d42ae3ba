package encoding

import (
	"net/http"

	"github.com/squeezehttp/squeeze/internal/httpfield"
	"github.com/squeezehttp/squeeze/negotiate"
)

// conds says which of a request's conditional header fields the middleware
// evaluates itself, once the handler's response is known.
type conds uint8

const (
	condNotModified conds = 1 << iota // If-None-Match or If-Modified-Since
	condIfMatch                       // If-Match, which the handler does not see
)

// precondition evaluates the conditions of a GET or HEAD request against
// the final header of the response that verdict v sends, before any byte of
// it goes out, as nginx's not-modified filter does after its content
// handler: a handler that sets an ETag or Last-Modified and never looks at
// conditional requests still answers them. It returns 412 or 304 to send
// in place of the response, or 0 to send it. The order is RFC 9110
// §13.2.2's.
func (w *responseWriter) precondition(v verdict) int {
	status := w.statusOrOK()
	h := w.Header()
	etag := first(h["Etag"])
	if v == compressWhole || v == compressStream {
		etag = w.adjustedETag(etag) // the tag the client would get
	}
	// §13.2.1: conditions are ignored where the response would be neither
	// 2xx nor 412 without them. A handler's own 304 read If-None-Match,
	// which If-Match comes before.
	if w.cond&condIfMatch != 0 && (status >= 200 && status < 300 || status == http.StatusNotModified) {
		// §13.1.1: the strong comparison, with the tag of the bytes sent:
		// a client holding the compressed representation must not get a
		// range of the identity one, nor the other way round.
		if im := w.req.Header["If-Match"]; !isStar(im) && !listsETag(im, etag, false) {
			return http.StatusPreconditionFailed
		}
	}
	if w.cond&condNotModified == 0 || status != http.StatusOK {
		return 0 // §13.2.1: a 304 stands only for a 200
	}
	if inm := w.req.Header["If-None-Match"]; inm != nil {
		// §13.1.2: the weak comparison; "*" matches the representation
		// that this 200 is.
		if isStar(inm) || listsETag(inm, etag, true) {
			return http.StatusNotModified
		}
		return 0 // §13.1.3: If-Modified-Since counts only without it
	}
	since, err := http.ParseTime(first(w.req.Header["If-Modified-Since"]))
	if err != nil {
		return 0 // §13.1.3: an invalid date is ignored
	}
	modified, err := http.ParseTime(first(h["Last-Modified"]))
	if err == nil && !modified.After(since) {
		return http.StatusNotModified
	}
	return 0
}

// answer sends code, the 304 or 412 that precondition chose, in place of the
// response that verdict v would have sent; the handler's body is dropped.
func (w *responseWriter) answer(h http.Header, code int, v verdict) {
	switch v {
	case compressWhole, compressStream:
		// The header of the compressed 200 that the 304 stands for.
		negotiate.AddVary(h, "Accept-Encoding")
		w.varyDictionary(h)
		w.adjustETag(h)
		delete(h, "Accept-Ranges")
	case passVaried:
		negotiate.AddVary(h, "Accept-Encoding")
	}
	// RFC 9110 §15.4.5: a 304 repeats the 200's ETag, Vary, Cache-Control,
	// Expires, Content-Location and Date; metadata of a body it does not
	// have is left out, as http.ServeContent does.
	delete(h, "Content-Type")
	delete(h, "Content-Length")
	delete(h, "Content-Encoding")
	dropTrailers(h)
	if code == http.StatusNotModified {
		if h["Etag"] != nil {
			delete(h, "Last-Modified")
		}
	} else {
		// A 412 is not the representation: without the 200's freshness
		// no cache can store it and serve it for another request.
		delete(h, "Cache-Control")
		delete(h, "Expires")
	}
	w.state = answered
	w.skip = SkipStatus // the 304 or 412 has no body
	w.status = code
	w.conditional = true
	w.rw.WriteHeader(code)
}

// notModified gives a handler's own 304 the validators and Vary of the 200
// it stands for (RFC 9110 §15.4.5).
func (w *responseWriter) notModified(h http.Header) {
	if ct, typed := h["Content-Type"]; typed && !w.s.types(httpfield.MediaType(first(ct))) {
		return // a type never compressed: nothing to negotiate
	}
	negotiate.AddVary(h, "Accept-Encoding")
	w.varyDictionary(h)
	if etag := first(h["Etag"]); etag != "" && w.offer != nil {
		if tag := w.notModifiedETag(etag); tag != etag {
			h["Etag"] = []string{tag}
		}
	}
}

// notModifiedETag returns the tag of a handler's 304 for its own etag: the
// one a 200 to the same request would carry, in the coding negotiated,
// unless If-None-Match shows that the client holds the identity
// representation, whose tag the handler matched.
func (w *responseWriter) notModifiedETag(etag string) string {
	adjusted := w.adjustedETag(etag)
	inm := w.req.Header["If-None-Match"]
	if adjusted == etag || inm == nil || isStar(inm) {
		return adjusted // If-Modified-Since and "*" say nothing of a coding
	}
	for _, line := range inm {
		for tag, rest, ok := scanETag(line); ok; tag, rest, ok = scanETag(rest) {
			// A suffixed tag is another opaque tag; a weakened one differs
			// from the handler's only in its W/.
			if tag == adjusted || w.s.etag == ETagSuffix && opaque(tag) == opaque(adjusted) {
				return adjusted
			}
		}
	}
	return etag
}
