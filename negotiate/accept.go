package negotiate

import "net/http"

// Quality values are in thousandths: RFC 9110 §12.4.2 allows at most three
// decimal places, so every qvalue is exact as an integer from 0 to 1000.
const (
	// MaxQuality is the weight of a coding listed without a q parameter (q=1).
	MaxQuality = 1000
)

// implicitIdentity is the weight identity has when the client did not list it
// (and did not exclude it with "*;q=0"). RFC 9110 §12.5.3 makes identity
// acceptable "by default"; it ranks below any coding the client did list, so
// that "gzip;q=0.5" still means "I want gzip".
const implicitIdentity = -1

// Accept is the Accept-Encoding field of one request (RFC 9110 §12.5.3).
//
// It keeps the field's lines as they were received and reads them on demand,
// which is why Parse cannot fail and costs nothing: a malformed list element
// is skipped, as RFC 9110 §5.6.1.2 asks recipients to be tolerant of lists.
type Accept struct {
	lines   []string
	present bool
}

// Parse returns the Accept-Encoding field made of lines, the field lines in
// the order they were received, as from r.Header.Values("Accept-Encoding").
// A nil slice means the request had no Accept-Encoding field.
func Parse(lines []string) Accept {
	return Accept{lines: lines, present: lines != nil}
}

// Present reports whether the request had an Accept-Encoding field at all,
// even an empty one.
func (a Accept) Present() bool { return a.present }

// Quality returns the weight the client gives coding, in thousandths
// (0 = not acceptable, MaxQuality = q=1). A coding the client did not list
// takes the weight of "*" when present. "identity" (or "") is acceptable
// unless the client excluded it; when neither it nor "*" is listed, Quality
// reports 1, the lowest acceptable weight, so that it never outranks a
// coding the client asked for.
//
// Codings are compared without regard to case, and "x-gzip" and "x-compress"
// are the same codings as "gzip" and "compress" (RFC 9110 §8.4.1.1, §8.4.1.3).
// "*" never stands for the dictionary codings "dcb" and "dcz": a client
// advertises those by name, with the dictionary they need (RFC 9842 §4, §5).
func (a Accept) Quality(coding string) int {
	w := a.scan([]string{coding})
	q := w.of(0, coding)
	if q == implicitIdentity {
		return 1
	}
	return q
}

// Select returns which of offers, the codings the server can produce in its
// order of preference, the client should get. The highest weight wins and
// the server's order breaks ties. When no offer is acceptable the answer is
// identity, returned as "", provided the client accepts it; ok is false only
// when the client excluded identity too ("identity;q=0", or "*;q=0" without
// an identity entry), and the caller decides between 406 and identity anyway.
//
// A request without the field gets identity: RFC 9110 §12.5.3 would allow any
// coding, but clients that send no Accept-Encoding are often ones that could
// not decode it.
//
// Offers may include "identity" to rank it among the others; it is returned
// as "". Select allocates nothing.
func (a Accept) Select(offers ...string) (coding string, ok bool) {
	if len(a.lines) == 0 {
		return "", true // no field, or no lines: identity, acceptable by default
	}
	best, bestQ := -1, 0
	var w weights
	for start := 0; start == 0 || start < len(offers); start += batchSize {
		batch := offers[start:min(start+batchSize, len(offers))]
		w = a.scan(batch)
		for i, offer := range batch {
			if q := w.of(i, offer); q > bestQ {
				best, bestQ = start+i, q
			}
		}
	}
	identity := w.identityWeight()
	if best < 0 || identity > bestQ {
		return "", identity != 0
	}
	if isIdentity(offers[best]) {
		return "", true
	}
	return offers[best], true
}

// Select is Parse(h.Values("Accept-Encoding")).Select(offers...), the
// allocation-free path a handler calls once per request.
func Select(h http.Header, offers ...string) (coding string, ok bool) {
	// The server canonicalises field names as it parses them, so a direct map
	// lookup finds the field without canonicalising the key once more.
	return Parse(h["Accept-Encoding"]).Select(offers...)
}

// batchSize is how many offers one pass over the field weighs; servers offer
// four or five codings, and more simply take another pass.
const batchSize = 8

// weights is what one pass over the field learns: the weight of each coding
// in a batch of offers by the first element naming it, and of the first "*"
// and identity elements; unlisted is -1.
type weights struct {
	listed   [batchSize]int
	star     int
	identity int
}

const unlisted = -1

func (a Accept) scan(batch []string) weights {
	w := weights{star: unlisted, identity: unlisted}
	var names [batchSize]string
	for i, offer := range batch {
		w.listed[i], names[i] = unlisted, canonical(offer)
	}
	for l := (lexer{lines: a.lines}); ; {
		c, q, ok := l.next()
		if !ok {
			return w
		}
		switch {
		case c == "*":
			if w.star == unlisted {
				w.star = q
			}
			continue
		case isIdentity(c):
			if w.identity == unlisted {
				w.identity = q
			}
		}
		c = canonical(c)
		for i, name := range names[:len(batch)] {
			if w.listed[i] == unlisted && equalFold(c, name) {
				w.listed[i] = q
			}
		}
	}
}

// of returns the weight of offer, the i-th of the batch that was scanned.
func (w *weights) of(i int, offer string) int {
	switch {
	case isIdentity(offer):
		return w.identityWeight()
	case w.listed[i] != unlisted:
		return w.listed[i]
	case w.star != unlisted && !needsExplicit(offer):
		return w.star
	}
	return 0
}

// identityWeight applies RFC 9110 §12.5.3: identity is acceptable unless
// excluded, and "*" covers it when it is not listed, so "*;q=0" without an
// identity entry excludes it.
func (w *weights) identityWeight() int {
	switch {
	case w.identity != unlisted:
		return w.identity
	case w.star != unlisted:
		return w.star
	}
	return implicitIdentity
}

func isIdentity(coding string) bool {
	return coding == "" || equalFold(coding, "identity")
}

// needsExplicit reports whether coding must be named by the client and so is
// never covered by "*".
func needsExplicit(coding string) bool {
	return equalFold(coding, "dcz") || equalFold(coding, "dcb")
}

// canonical folds the x- aliases of RFC 9110 §8.4.1 into the codings they
// name.
func canonical(c string) string {
	if len(c) > 2 && (c[0] == 'x' || c[0] == 'X') && c[1] == '-' {
		if rest := c[2:]; equalFold(rest, "gzip") || equalFold(rest, "compress") {
			return rest
		}
	}
	return c
}

// equalFold is an ASCII-only strings.EqualFold: tokens are ASCII, and a
// non-ASCII byte must not match an ASCII letter by Unicode folding.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
