package dictionary

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// RouteConfig describes a route dictionary (see Route).
type RouteConfig struct {
	// Match is the path pattern of the route's requests, such as
	// "/api/*", whose only special character is * (any run of characters,
	// "/" included): the URL pattern of RFC 9842 §2.1.1 on which the
	// browser sends Available-Dictionary, and what Collect matches request
	// paths with. Required.
	Match string

	// Path is the URL path the Route serves its dictionary at, such as
	// "/dictionaries/api", which Link names. Required.
	Path string

	// Store keeps the dictionaries the route builds: the Store of the
	// Server the middleware uses, so that requests naming one get dcz. An
	// earlier dictionary stays in it after a newer one is announced, for
	// the clients that still hold it, until the Store evicts it. Required.
	Store *Store

	// MaxBytes bounds a dictionary. Default 64 KiB (DefaultRouteBytes);
	// NewRoute refuses a negative value and one above 1 MiB, more than a
	// browser keeps for long.
	MaxBytes int

	// MinGain is how many times smaller than the better of br 4 and zstd 3
	// dcz with a new dictionary must make the held-back samples for the
	// route to announce it, and how many times smaller than dcz with the
	// announced dictionary for it to replace that one. Default 1.3
	// (DefaultMinGain): the browser downloads and keeps the dictionary,
	// up to MaxBytes, for the route's responses to repay, and what a route
	// dictionary saves depends on the data (the report's route-dictionaries
	// section measures it on the corpus's JSON). NewRoute refuses a value
	// under 1.
	MinGain float64

	// MaxAge is how long a client may keep the dictionary (its
	// Cache-Control max-age), in whole seconds. Default one day
	// (DefaultRouteMaxAge): a route's responses change, so its dictionary
	// should not outlive the next rotation by much.
	MaxAge time.Duration

	// Level is the zstd level dcz is measured at: the Server's. Default 3.
	Level int
}

// Defaults of RouteConfig's fields.
const (
	DefaultRouteBytes  = 64 << 10
	DefaultMinGain     = 1.3
	DefaultRouteMaxAge = 24 * time.Hour
	maxRouteBytes      = 1 << 20
)

// Route is a dictionary for the responses of one route of a JSON API: a
// browser calls the route again and again, and its responses share their
// field names, their structure and many values, which a dictionary made of
// earlier responses turns into short references. Build makes one from
// samples of the route's responses (fixtures of the application, the
// recommended source, or what Collect gathered), measures what it saves on
// samples it held back, and announces it only when it beats br and zstd by
// RouteConfig.MinGain. ServeHTTP serves the announced dictionary with its
// Use-As-Dictionary, and Link points documents at it, so that a browser
// fetches it at idle time and names it on every later request the pattern
// matches. It is safe for concurrent use.
type Route struct {
	match, path string
	store       *Store
	maxBytes    int
	minGain     float64
	maxAge      time.Duration
	level       int

	mu        sync.Mutex
	current   *Dictionary // the announced dictionary, nil before one is
	gain      Gain        // what Build measured for current
	link      []string    // the Link field value pointing at path
	reference [][]byte    // the samples Build held back: the yardstick
	collected [][]byte    // what Collect kept, oldest first
	fresh     int         // collected since the last build from them
	building  bool        // a build from collected samples is under way
}

// Gain is what a dictionary saves on the samples Build held back: their
// bytes as zstd at level 3, br at quality 4, and dcz with the dictionary
// (its 40-byte header included).
type Gain struct {
	Hash      [32]byte // the dictionary's SHA-256
	Size      int      // its bytes
	Samples   int      // samples measured (held back from building)
	Identity  int64
	Zstd      int64
	Brotli    int64
	DCZ       int64
	Announced bool    // the route serves and announces this dictionary
	Ratio     float64 // the smaller of Zstd and Brotli over DCZ
	Replaced  bool    // it replaced an announced dictionary
	Kept      bool    // an announced one stays: this one did not beat it by MinGain
}

// NewRoute returns the route cfg describes, with no dictionary announced
// until Build makes one, or an error that says what in cfg is wrong.
func NewRoute(cfg RouteConfig) (*Route, error) {
	r := &Route{match: cfg.Match, path: cfg.Path, store: cfg.Store, maxBytes: cfg.MaxBytes,
		minGain: cfg.MinGain, maxAge: cfg.MaxAge, level: cfg.Level}
	if _, err := (UseAs{Match: r.match}).Value(); err != nil {
		return nil, fmt.Errorf("dictionary: RouteConfig.Match: %w", err)
	}
	switch {
	case r.store == nil:
		return nil, errors.New("dictionary: RouteConfig.Store is nil")
	case len(r.path) == 0 || r.path[0] != '/':
		return nil, fmt.Errorf("dictionary: RouteConfig.Path %q is not an absolute path", r.path)
	case r.maxBytes < 0 || r.maxBytes > maxRouteBytes:
		return nil, fmt.Errorf("dictionary: RouteConfig.MaxBytes %d outside 0..%d (0 means DefaultRouteBytes)", r.maxBytes, maxRouteBytes)
	case r.minGain != 0 && r.minGain < 1:
		return nil, fmt.Errorf("dictionary: RouteConfig.MinGain %v is under 1 (0 means DefaultMinGain)", r.minGain)
	}
	if err := checkMaxAge(r.maxAge); err != nil {
		return nil, fmt.Errorf("dictionary: RouteConfig.MaxAge: %w", err)
	}
	if r.maxBytes == 0 {
		r.maxBytes = DefaultRouteBytes
	}
	if r.minGain == 0 {
		r.minGain = DefaultMinGain
	}
	if r.maxAge == 0 {
		r.maxAge = DefaultRouteMaxAge
	}
	if r.level == 0 {
		r.level = defaultLevel
	}
	if err := checkLevel(r.level); err != nil {
		return nil, err
	}
	r.link = []string{"<" + r.path + `>; rel="compression-dictionary"`}
	return r, nil
}

// heldBack says which samples Build measures with rather than builds from:
// every fifth, so that the measure is of responses the dictionary has not
// seen.
func heldBack(i int) bool { return i%5 == 4 }

// ErrFewSamples is returned by Build for fewer than 5 samples: at least one
// must be held back to measure the dictionary, and four to build it.
var ErrFewSamples = errors.New("dictionary: a route dictionary needs at least 5 samples")

// Build makes a dictionary from samples of the route's responses, oldest
// first: every fifth is held back to measure it, and the rest, newest
// last, as many as fit in RouteConfig.MaxBytes, make it (the dictionary
// is their bytes: a response's nearest earlier responses are its best
// matches, and this beat klauspost's dictionary builder on the corpus's
// JSON). The dictionary is announced, and added to the Store, when dcz
// with it makes the held-back samples MinGain times smaller than the
// better of br 4 and zstd 3 and, if one is announced already, MinGain
// times smaller than dcz with that one: the route rotates when its
// responses have changed enough to matter. Build returns what it measured,
// announced or not. The caller must not modify samples afterwards.
func (r *Route) Build(samples [][]byte) (Gain, error) {
	if len(samples) < 5 {
		return Gain{}, ErrFewSamples
	}
	var test, train [][]byte
	for i, s := range samples {
		if heldBack(i) {
			test = append(test, s)
		} else {
			train = append(train, s)
		}
	}
	r.mu.Lock()
	r.reference = test
	r.mu.Unlock()
	return r.build(train, test)
}

// build makes a dictionary of train, measures it on test and announces it
// as Build says.
func (r *Route) build(train, test [][]byte) (Gain, error) {
	d := New(r.dictionaryOf(train))
	g, err := r.measure(d, test)
	if err != nil {
		return g, err
	}
	g.Ratio = float64(min(g.Zstd, g.Brotli)) / float64(g.DCZ)
	r.mu.Lock()
	defer r.mu.Unlock()
	if g.Ratio < r.minGain || d.hash == r.gain.Hash {
		return g, nil
	}
	if r.current != nil {
		old, err := r.measure(r.current, test)
		if err != nil {
			return g, err
		}
		if float64(old.DCZ) < r.minGain*float64(g.DCZ) {
			g.Kept = true
			return g, nil
		}
		g.Replaced = true
	}
	d, err = r.store.Add(d.raw)
	if err != nil {
		return g, err
	}
	g.Announced = true
	r.current, r.gain = d, g
	return g, nil
}

// dictionaryOf concatenates the newest samples that fit in maxBytes,
// oldest first, skipping repeats of one already in.
func (r *Route) dictionaryOf(train [][]byte) []byte {
	var picked [][]byte
	n := 0
	for i := len(train) - 1; i >= 0; i-- {
		s := train[i]
		if n+len(s) > r.maxBytes {
			continue
		}
		dup := false
		for _, p := range picked {
			if bytes.Equal(p, s) {
				dup = true
				break
			}
		}
		if !dup {
			picked = append(picked, s)
			n += len(s)
		}
	}
	raw := make([]byte, 0, n)
	for i := len(picked) - 1; i >= 0; i-- {
		raw = append(raw, picked[i]...)
	}
	return raw
}

// measure compresses test with d (dcz), zstd 3 and br 4.
func (r *Route) measure(d *Dictionary, test [][]byte) (Gain, error) {
	g := Gain{Hash: d.hash, Size: d.Len(), Samples: len(test)}
	zs, br := encoding.Zstd().(encoding.AppendEncoder), encoding.Brotli().(encoding.AppendEncoder)
	var buf []byte
	for _, s := range test {
		var err error
		g.Identity += int64(len(s))
		if buf, err = zs.AppendEncode(buf[:0], s, 3); err != nil {
			return g, err
		}
		g.Zstd += int64(len(buf))
		if buf, err = br.AppendEncode(buf[:0], s, 4); err != nil {
			return g, err
		}
		g.Brotli += int64(len(buf))
		if buf, err = AppendDCZ(buf[:0], s, d, r.level); err != nil {
			return g, err
		}
		g.DCZ += int64(len(buf))
	}
	return g, nil
}

// Announced returns what Build measured for the announced dictionary, and
// false when none is announced.
func (r *Route) Announced() (Gain, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gain, r.current != nil
}

// Link adds to h, the header of a document that calls the route, the Link
// to the announced dictionary (rel="compression-dictionary", RFC 9842
// §3), which a browser fetches at idle time; it adds nothing while none
// is announced.
func (r *Route) Link(h http.Header) {
	r.mu.Lock()
	announced := r.current != nil
	r.mu.Unlock()
	if announced {
		h["Link"] = append(h["Link"], r.link...)
	}
}

// ServeHTTP serves the announced dictionary at RouteConfig.Path: its
// bytes with Use-As-Dictionary (the route's pattern, and its hash as the
// id), fresh for RouteConfig.MaxAge, with a strong ETag made of its hash,
// which conditional requests are answered from; 404 while none is
// announced.
func (r *Route) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	d := r.current
	r.mu.Unlock()
	if d == nil {
		http.NotFound(w, req)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Cache-Control", "public, max-age="+strconv.FormatInt(int64(r.maxAge/time.Second), 10))
	h.Set("ETag", `"`+d.tag()+`"`)
	if err := SetUseAs(h, UseAs{Match: r.match, ID: d.tag()}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, req, "", time.Time{}, bytes.NewReader(d.raw))
}
