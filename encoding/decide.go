package encoding

import (
	"hash/maphash"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"github.com/squeezehttp/squeeze/internal/httpfield"
	"github.com/squeezehttp/squeeze/negotiate"
)

// verdict is the outcome of the decision to compress.
type verdict uint8

const (
	undecidedVerdict verdict = iota // the headers alone cannot tell: look at the body
	passPlain                       // identity for every client: nothing to negotiate
	passVaried                      // identity for this client, compressed for others: Vary
	passNotModified                 // a 304, which repeats the validators of the 200
	compressWhole                   // compress the held-back body in one shot
	compressStream                  // compress as the body streams
)

// verdictFromHeader decides from the status and headers alone, which is
// possible when they rule compression out, or when Content-Length says the
// body is larger than the buffer. A verdict that passes the body through
// comes with the Skip that says why. When it returns undecidedVerdict, the
// described it returns is what the headers say of the body, so that
// verdictFromBody need not read them again.
func (w *responseWriter) verdictFromHeader() (verdict, Skip, described) {
	h := w.Header()
	switch {
	case w.bypass:
		return passPlain, SkipBypassed, described{}
	case w.status == http.StatusNotModified:
		return passNotModified, SkipStatus, described{}
	case w.status == http.StatusPartialContent: // a range of the identity bytes
		return passPlain, SkipRange, described{}
	case !compressibleStatus(w.status):
		return passPlain, SkipStatus, described{}
	}
	ct, typed := h["Content-Type"]
	onlyType := onlyContentType(h, typed) // then the lookups below would find nothing
	if !onlyType {
		switch {
		case h["Content-Encoding"] != nil: // already encoded, by the handler
			return passPlain, SkipEncoded, described{}
		case h["Content-Range"] != nil: // a part of some representation: RFC 9110 §14.4
			return passPlain, SkipRange, described{}
		case httpfield.HasToken(h["Cache-Control"], "no-transform"): // RFC 9111 §5.2.2.6, §5.2.1.6
			return passPlain, SkipNoTransform, described{}
		}
	}
	if typed && !w.s.types(httpfield.MediaType(first(ct))) {
		return passPlain, SkipType, described{}
	}
	d := described{typed: typed}
	if !onlyType {
		d.size, d.sized = contentLength(h)
	}
	switch {
	case d.sized && d.size < int64(w.s.minSize):
		return passPlain, SkipTooSmall, d
	case !d.typed || !d.sized:
		return undecidedVerdict, SkipNone, d
	case w.offer == nil:
		return passVaried, SkipNotAccepted, d
	case d.size > int64(w.s.bufferSize) && w.req.Method != http.MethodHead:
		return compressStream, SkipNone, d
	}
	return undecidedVerdict, SkipNone, d
}

// onlyContentType reports whether h holds no field but the Content-Type
// that typed says it has, if any: then every other field is absent, and
// looking one up is wasted. Many handlers set Content-Type alone.
func onlyContentType(h http.Header, typed bool) bool {
	return len(h) == 0 || typed && len(h) == 1
}

// described is what a response's headers say of its body.
type described struct {
	typed bool  // a Content-Type is set, and Types accepted it
	sized bool  // a valid Content-Length is set
	size  int64 // that Content-Length
}

// verdictFromBody decides with the held-back body in view; final says the
// handler has returned, so the body is complete. A verdict that passes the
// body through comes with the Skip that says why.
func (w *responseWriter) verdictFromBody(final bool) (verdict, Skip) {
	v, why, d := w.verdictFromHeader()
	if v != undecidedVerdict {
		return v, why
	}
	body := w.held()
	contentType := "" // what the sniffing found, when the handler set none
	if !d.typed && len(body) > 0 {
		// Sniff the uncompressed bytes, as net/http would have; it would
		// otherwise sniff the compressed ones.
		contentType = http.DetectContentType(body)
		w.Header()["Content-Type"] = []string{contentType}
	}
	head := w.req.Method == http.MethodHead
	size := int64(len(body))
	if d.sized && head {
		size = d.size // the body of a HEAD is only described
	}
	switch {
	case final && size < int64(w.s.minSize):
		if head && !d.sized && w.in == 0 {
			return passPlain, SkipHead // the GET's body may well be larger
		}
		return passPlain, SkipTooSmall
	case !d.typed && !w.s.types(httpfield.MediaType(contentType)):
		return passPlain, SkipType
	case w.offer == nil:
		return passVaried, SkipNotAccepted
	case final:
		return compressWhole, SkipNone
	}
	return compressStream, SkipNone
}

// compressibleStatus reports whether a response with code carries a body
// worth compressing: not 204 and 205 (no content), 206 (a range of the
// identity bytes) or 304 (no content).
func compressibleStatus(code int) bool {
	switch code {
	case http.StatusNoContent, http.StatusResetContent, http.StatusPartialContent, http.StatusNotModified:
		return false
	}
	return code >= 200
}

func contentLength(h http.Header) (int64, bool) {
	v := h["Content-Length"]
	if len(v) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v[0]), 10, 64)
	return n, err == nil && n >= 0
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func (w *responseWriter) held() []byte {
	if w.buf == nil {
		return nil
	}
	return *w.buf
}

// commit sends the headers the verdict calls for and starts the body, or
// the 304 or 412 that the request's conditions call for instead. why is the
// reason a body that passes through does so, for Stats.Skip.
func (w *responseWriter) commit(v verdict, why Skip) {
	h := w.Header()
	w.skip = why
	if v == passNotModified {
		w.notModified(h)
	}
	if w.cond != 0 {
		if code := w.precondition(v); code != 0 {
			w.answer(h, code, v)
			return
		}
	}
	switch v {
	case compressWhole, compressStream:
		if w.commitCompressed(h, v) {
			return
		}
		negotiate.AddVary(h, "Accept-Encoding") // the encoder could not start: identity is still right
	case passVaried:
		negotiate.AddVary(h, "Accept-Encoding")
	}
	w.state = identity
	w.writeHeader(h, w.statusOrOK())
	if body := w.held(); len(body) > 0 {
		_, _ = w.out.Write(body) // an error is the client's absence; Write reports it next time
	}
	w.dropBuffer()
}

// commitCompressed sets the headers of a compressed response in h, the
// response's header, and sends the held-back body through the encoder, or
// whole when the handler is done. It reports false, having changed nothing,
// when the encoder cannot be had.
func (w *responseWriter) commitCompressed(h http.Header, v verdict) bool {
	head := w.req.Method == http.MethodHead
	_, typed := h["Content-Type"]
	bare := onlyContentType(h, typed) // then there is nothing to look up or remove
	var enc Writer
	var whole []byte // the compressed body, when known whole
	switch {
	case head && (v != compressWhole || len(w.held()) == 0):
		// A HEAD whose handler wrote no body, or more than the buffer
		// holds: its GET's length is not known without compressing what
		// nobody reads, and its GET streams without one.
	case v == compressWhole && w.cacheable(h, bare) && w.seenBefore():
		if whole = w.cachedWhole(); whole == nil {
			return false
		}
	case v == compressWhole:
		pooled := w.encodeWhole()
		if pooled == nil {
			return false
		}
		defer putBuffer(pooled)
		whole = *pooled
	case w.flushing && w.s.jitter == 0 && w.in == 0:
		// A flush before the first byte sends the header alone and leaves
		// the encoder to what follows (see holdDeferred).
	default:
		// A stream that flushes before it outgrows the buffer: events,
		// many of them open at once, each worth a small encoder.
		var err error
		if enc, err = w.takeEncoder(w.flushing && w.s.jitter == 0); err != nil {
			return false
		}
	}
	// Content-Length would end chunked framing, and with it the trailers
	// the handler declared.
	sized := whole != nil && (bare || !hasTrailers(h))
	h["Content-Encoding"] = w.offer.contentEncoding
	negotiate.AddVary(h, "Accept-Encoding")
	w.varyDictionary(h)
	if sized {
		h["Content-Length"] = w.contentLength.set(len(whole))
	}
	if !bare {
		if !sized {
			delete(h, "Content-Length")
		}
		delete(h, "Accept-Ranges") // ranges are of the identity bytes; this body has none to offer
		w.adjustETag(h)
	}
	w.state = compressing
	switch {
	case head:
		// RFC 9110 §9.3.2: the header of the GET, Content-Length included
		// when the handler wrote the whole body into the buffer (one
		// compression of at most BufferSize, or a Cache lookup); the body
		// is not sent.
		w.state = identity
		w.headCoded = true
		w.writeHeader(h, w.statusOrOK())
	case whole != nil:
		w.writeHeader(h, w.statusOrOK())
		_, _ = w.out.Write(whole)
	case enc == nil:
		w.deferred = true
		w.writeHeader(h, w.statusOrOK())
	default:
		w.enc = enc
		w.writeHeader(h, w.statusOrOK())
		if pad := w.padding(true); pad > 0 {
			// An error is the client's absence, as for the body below.
			_ = w.offer.pool.padder.Pad(enc, &w.out, pad)
		}
		if body := w.held(); len(body) > 0 {
			_, _ = w.encode(body)
		}
		// The held body is in the encoder: an open stream keeps no copy.
		w.dropBuffer()
	}
	return true
}

// encodeWhole compresses the complete held-back body in one shot, so that
// it can go out with its Content-Length and neither chunked framing nor
// closing the connection is needed to end it. It returns nil if the encoder
// failed, when the client can still have identity.
func (w *responseWriter) encodeWhole() *[]byte {
	out := getBuffer()
	start := w.startTimer()
	encoded, err := w.offer.pool.encodePadded((*out)[:0], w.held(), w.padding(false))
	w.stopTimer(start)
	*out = encoded
	if err != nil {
		putBuffer(out)
		return nil
	}
	return out
}

// jitterSeed keys the padding hash: an attacker who cannot learn it cannot
// predict the padding of a body.
var jitterSeed = maphash.MakeSeed()

// padding returns how many bytes of length-hiding padding this response gets,
// 1 to Jitter, or 0 when off. A whole body gets a keyed hash of itself, so
// that repeating a request cannot average the padding away; a stream, whose
// body is not known when its padding must be chosen, gets a random amount.
func (w *responseWriter) padding(stream bool) int {
	if w.s.jitter <= 0 || !w.offer.pool.canPad() {
		return 0
	}
	if stream {
		return 1 + rand.IntN(w.s.jitter)
	}
	return 1 + int(maphash.Bytes(jitterSeed, w.held())%uint64(w.s.jitter))
}

func (w *responseWriter) statusOrOK() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}
