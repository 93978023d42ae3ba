package encoding

import (
	"net/http"

	"github.com/squeezehttp/squeeze/negotiate"
)

// Dictionaries offers, per request, a coding that compresses with a
// dictionary the client already holds (RFC 9842 Compression Dictionary
// Transport), such as dcz. The encoding/dictionary package's Server
// implements it; Config.Dictionaries takes one.
type Dictionaries interface {
	// Lookup returns the codec that compresses the response to r with the
	// dictionary r names, and an id of that dictionary (URL-safe, without
	// quotes) that makes its strong ETags differ from other dictionaries';
	// nil when r cannot have one. It is called once per request, before
	// the handler runs, and the response is encoded at the codec's default
	// level. The middleware offers the codec's coding only when
	// Accept-Encoding names it ("*" never stands for dcz or dcb, RFC 9842
	// §6.1) at no lower a weight than the coding it would get without.
	Lookup(r *http.Request) (c Codec, id string)

	// Permit reports whether the response to r whose header is h may go
	// out in the coding Lookup returned; otherwise it gets the coding
	// negotiated without. It is called once, when the handler's header is
	// final.
	Permit(r *http.Request, h http.Header) bool
}

// choice is what a request can get, found once before the handler runs:
// the coding negotiated among Config.Codings, and the dictionary coding
// when the request asks for one it can have. Which of them the response
// gets is decided once, by decide, when the handler's header is final.
type choice struct {
	plain *offer // nil for identity
	dict  *offer // nil without a dictionary coding
}

// choose negotiates r's codings, parsing Accept-Encoding once; ok is false
// when r accepts neither identity nor any coding offered. It changes
// nothing: a request gets nothing until decide.
func (s *settings) choose(r *http.Request) (c choice, ok bool) {
	var dict Codec
	var id string
	if s.dict != nil {
		dict, id = s.dict.Lookup(r)
	}
	if dict == nil {
		coding, ok := negotiate.Select(r.Header, s.names...)
		return choice{plain: s.offer(coding)}, ok
	}
	a := negotiate.Parse(r.Header["Accept-Encoding"])
	coding, ok := a.Select(s.names...)
	c.plain = s.offer(coding)
	// RFC 9842 §6.1: the dictionary coding by name, at no lower a weight.
	if q := a.Quality(dict.Name()); q > 0 && q >= a.Quality(coding) {
		c.dict = dictionaryOffer(dict, id)
	}
	return c, ok
}

// preferred is the coding the request asks for first: the dictionary
// coding when it has one. Its ETag suffix is the one the handler sees
// taken off conditional header fields.
func (c choice) preferred() *offer {
	if c.dict != nil {
		return c.dict
	}
	return c.plain
}

// decide settles the coding of w's response, once, when its status and
// header are final: the dictionary coding when the header permits it
// (RFC 9842 §9.2, §9.3.3), else the coding negotiated without.
func (w *responseWriter) decide() {
	w.offer = w.choice.plain
	if d := w.choice.dict; d != nil && w.s.dict.Permit(w.req, w.Header()) {
		w.offer = d
	}
}

// dictionaryOffer returns the offer of a dictionary codec, made per
// request: dictionaries come and go, and the codec pools what is costly.
func dictionaryOffer(c Codec, id string) *offer {
	p, err := newEncoderPool(c, 0)
	if err != nil {
		return nil
	}
	name := p.name()
	return &offer{
		pool:            p,
		contentEncoding: []string{name}[:1:1],
		// A strong ETag differs per dictionary too: each one makes
		// another representation (RFC 9110 §8.8.3.3).
		etagSuffix: "-" + name + "-" + id + `"`,
		dictionary: true,
	}
}

// varyDictionary adds Available-Dictionary to the Vary of a response in a
// dictionary coding, which RFC 9842 §6.2 requires of a cacheable one: a
// cache must not hand it to a client without that dictionary.
func (w *responseWriter) varyDictionary(h http.Header) {
	if w.offer != nil && w.offer.dictionary {
		negotiate.AddVary(h, "Available-Dictionary")
	}
}
