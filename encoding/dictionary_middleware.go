package encoding

import (
	"net/http"

	"github.com/squeezehttp/squeeze/negotiate"
)

// dictionarySettings is what Config says about dictionary compression.
type dictionarySettings struct {
	store  *DictionaryStore
	level  int
	allow  func(*http.Request, http.Header) bool
	secure func(*http.Request) bool
}

func (c Config) dictionarySettings() (*dictionarySettings, error) {
	if c.Dictionaries == nil {
		return nil, nil
	}
	ds := &dictionarySettings{store: c.Dictionaries, level: c.DictionaryLevel, allow: c.DictionaryAllow, secure: c.DictionarySecure}
	if ds.level == 0 {
		ds.level = defaultZstdLevel
	}
	if err := checkZstdLevel(ds.level); err != nil {
		return nil, err
	}
	if ds.allow == nil {
		ds.allow = PublicResponse
	}
	if ds.secure == nil {
		ds.secure = SecureRequest
	}
	return ds, nil
}

// dictionaryChoice is the dictionary a request can use, held until the
// response's headers show whether it may: the CORS grant and the cache
// directives that decide it are the handler's to set.
type dictionaryChoice struct {
	fallback      string // the coding negotiated without the dictionary
	fallbackOffer *offer
	settled       bool
}

// offer returns the middleware's dcz offer at level for d, made once.
func (d *Dictionary) offer(level int) *offer {
	d.offersMu.Lock()
	defer d.offersMu.Unlock()
	if o, ok := d.offers[level]; ok {
		return o
	}
	p, err := newEncoderPool(dczCodec{d}, level)
	if err != nil {
		return nil // level was checked by Config; unreachable
	}
	o := &offer{
		pool:            p,
		contentEncoding: []string{"dcz"}[:1:1],
		// A strong ETag differs per dictionary too: each one makes
		// another representation (RFC 9110 §8.8.3.3).
		etagSuffix: "-dcz-" + d.tag() + `"`,
	}
	if d.offers == nil {
		d.offers = make(map[int]*offer)
	}
	d.offers[level] = o
	return o
}

// chooseDictionary switches w to dcz when the request offers a dictionary
// the store has, names dcz explicitly in Accept-Encoding (RFC 9842 §6.1;
// negotiate never lets "*" stand for it) at no lower a weight than the
// coding negotiated without it, and came over a secure context (§8).
func (w *responseWriter) chooseDictionary() {
	ds := w.s.dict
	r := w.req
	if _, ok := r.Header["Available-Dictionary"]; !ok {
		return
	}
	a := negotiate.Parse(r.Header["Accept-Encoding"])
	q := a.Quality("dcz")
	if q == 0 || q < a.Quality(w.coding) || !ds.secure(r) {
		return
	}
	hash, ok := AvailableDictionary(r.Header)
	if !ok {
		return
	}
	d := ds.store.Lookup(hash)
	if d == nil {
		return
	}
	w.dict = &dictionaryChoice{fallback: w.coding, fallbackOffer: w.offer}
	w.coding, w.offer = "dcz", d.offer(ds.level)
}

// settleDictionary decides, once the handler's headers are known, whether
// the dictionary stays: only for a response the request's page may read
// (RFC 9842 §9.3.3) and that DictionaryAllow lets mix with a dictionary
// (§9.2). Otherwise the response goes back to the coding it had without.
func (w *responseWriter) settleDictionary() {
	c := w.dict
	if c == nil || c.settled {
		return
	}
	c.settled = true
	h := w.Header()
	if DictionaryReadable(w.req, h) && w.s.dict.allow(w.req, h) {
		return
	}
	w.coding, w.offer = c.fallback, c.fallbackOffer
	w.dict = nil
}

// varyDictionary adds Available-Dictionary to the Vary of a dcz response,
// which RFC 9842 §6.2 requires of a cacheable one: a cache must not hand it
// to a client without that dictionary.
func (w *responseWriter) varyDictionary(h http.Header) {
	if w.dict != nil {
		negotiate.AddVary(h, "Available-Dictionary")
	}
}
