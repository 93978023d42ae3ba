package encoding

import (
	"net/http"
	"strconv"
	"strings"
)

// Origin says where the body of a response came from, for Stats.Origin.
type Origin uint8

const (
	// OriginHandler: the body went out as the handler wrote it, in
	// identity or in a coding of the handler's own (Stats.Coding); Skip
	// says why the middleware did not compress it.
	OriginHandler Origin = iota
	// OriginEncoder: the middleware compressed the handler's body (for a
	// HEAD: announced the coding its GET gets).
	OriginEncoder
	// OriginCache: the compressed body came from Config.Cache, made by an
	// earlier response (Stats.Cache is CacheHit).
	OriginCache
)

// String returns "handler", "encoder" or "cache", fit for a metric label
// or a log field.
func (o Origin) String() string {
	switch o {
	case OriginHandler:
		return "handler"
	case OriginEncoder:
		return "encoder"
	case OriginCache:
		return "cache"
	}
	return "Origin(" + strconv.Itoa(int(o)) + ")"
}

// stats is what OnResponse is told of the response.
func (w *responseWriter) stats() Stats {
	st := Stats{Status: w.statusOrOK(), BytesIn: w.in, BytesOut: w.out.n, Conditional: w.conditional, Cache: w.cache}
	switch {
	case w.state == compressing || w.headCoded:
		st.Coding, st.Duration, st.Origin = w.offer.pool.name(), w.encTime, OriginEncoder
		if w.cache == CacheHit {
			st.Origin = OriginCache
		}
	default:
		st.Skip = w.skip
		if !w.conditional {
			// The handler's own coding, as sent (RFC 9110 §8.4: names are
			// case-insensitive).
			st.Coding = strings.ToLower(strings.TrimSpace(first(w.Header()["Content-Encoding"])))
		}
		if st.Coding == "identity" {
			st.Coding = ""
		}
	}
	if w.req.Method == http.MethodHead {
		st.BytesOut = 0 // net/http drops what was written
	}
	return st
}
