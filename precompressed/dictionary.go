package precompressed

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/encoding/dictionary"
	"github.com/squeezehttp/squeeze/negotiate"
)

// DictionaryConfig turns on Compression Dictionary Transport (RFC 9842) in
// a FileServer: versioned assets are marked as dictionaries for their next
// versions, and a request whose Available-Dictionary names a version for
// which a delta sidecar exists gets that delta, as dcz. Deltas are made by
// GenerateDelta; nothing is compressed with a dictionary on the fly (that
// is encoding.Config.Dictionaries' job).
type DictionaryConfig struct {
	// Match returns the Use-As-Dictionary match pattern (RFC 9842 §2.1.1)
	// for the file name (slash-separated, as in fs.FS), or "" for a file
	// that is not a dictionary. VersionedMatch builds one. Nil: no file
	// is marked, but deltas are still served.
	Match func(name string) string

	// MatchDest lists the request destinations the dictionaries are for,
	// such as "script"; empty means all (RFC 9842 §2.1.2). A value that
	// cannot be sent as a structured-field string makes FileServer panic.
	MatchDest []string

	// MaxAge is the freshness given to a dictionary response, which clients
	// use only while fresh (RFC 9842 §2.2.1), when it has no Cache-Control
	// set by a handler around the FileServer. Zero means
	// dictionary.DefaultMaxAge, a year; a negative value, or one under a
	// second, makes FileServer panic.
	MaxAge time.Duration

	// Secure decides whether a request came over a secure context, where
	// alone RFC 9842 §8 lets dictionaries be used. Nil means
	// dictionary.SecureRequest: TLS, or a localhost Host for development.
	Secure func(r *http.Request) bool
}

// DeltaExt is the extension of delta sidecars: name + "." + the
// dictionary's SHA-256 in lower-case hex + DeltaExt.
const DeltaExt = ".dcz"

// DeltaName returns the name of the delta sidecar of name made with the
// dictionary whose SHA-256 is hash, such as
// "app.js.9f86d0….dcz": hex, not base64, so that names differing only in
// case cannot collide on a case-insensitive file system.
func DeltaName(name string, hash [32]byte) string {
	return name + "." + hex.EncodeToString(hash[:]) + DeltaExt
}

// deltaOriginal returns the name of the original of which name is a delta
// sidecar (DeltaName's form, the hash in lower-case hex), or "" when name
// is not one.
func deltaOriginal(name string) string {
	const hexLen = 2 * sha256.Size
	rest, ok := strings.CutSuffix(name, DeltaExt)
	if !ok || len(rest) < hexLen+2 || rest[len(rest)-hexLen-1] != '.' {
		return ""
	}
	for _, c := range rest[len(rest)-hexLen:] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	orig := rest[:len(rest)-hexLen-1]
	if strings.HasSuffix(orig, "/") {
		return ""
	}
	return orig
}

// DefaultVersionPattern is the regular expression that finds the version
// in a file name, in its first group: a run of digits and dots after "-",
// "." or "@" (jquery-3.7.1.min.js, app@2.js), or a hex content hash of 8
// or more digits (app.3f2a1b9c.js).
const DefaultVersionPattern = `[-.@]((?:v?\d+(?:\.\d+)*)|[0-9a-f]{8,})\.`

// defaultVersionPattern is DefaultVersionPattern compiled, for
// VersionedMatch.
var defaultVersionPattern = regexp.MustCompile(DefaultVersionPattern)

// VersionedMatch returns a DictionaryConfig.Match that marks files whose
// base name has a version, as found by the first group of pattern (nil
// for DefaultVersionPattern), with a match pattern that replaces the
// version by "*": under urlPrefix (the path the FileServer is mounted
// at, "/" when at the root), "js/app.3f2a1b9c.js" gets
// "/js/app.*.js", which the next build's name matches. A pattern without
// a group would mark nothing: VersionedMatch panics on one.
func VersionedMatch(urlPrefix string, pattern *regexp.Regexp) func(name string) string {
	if pattern == nil {
		pattern = defaultVersionPattern
	}
	if pattern.NumSubexp() < 1 {
		panic(fmt.Sprintf("precompressed: VersionedMatch: pattern %q has no group to find the version with", pattern))
	}
	if !strings.HasSuffix(urlPrefix, "/") {
		urlPrefix += "/"
	}
	return func(name string) string {
		dir, base := path.Split(name)
		loc := pattern.FindStringSubmatchIndex(base)
		if len(loc) < 4 || loc[2] < 0 {
			return ""
		}
		// URL patterns treat these as syntax; such names are left unmarked.
		if strings.ContainsAny(name, `*?+:{}()\`) {
			return ""
		}
		return urlPrefix + dir + base[:loc[2]] + "*" + base[loc[3]:]
	}
}

// dictionaryServer is the part of a FileServer that handles dictionaries.
type dictionaryServer struct {
	cfg    DictionaryConfig
	secure func(*http.Request) bool

	deltas *statCache[*deltaEntry] // stat results of delta sidecars, by name
}

// deltaEntry is what a stat of one delta name found, nil v for nothing.
type deltaEntry struct {
	v       *variant
	checked time.Time
}

// newDictionaryServer returns the dictionary part of a FileServer, keeping
// at most statBytes of delta stat results.
func newDictionaryServer(cfg *DictionaryConfig, statBytes int64) *dictionaryServer {
	d := &dictionaryServer{cfg: *cfg, secure: cfg.Secure, deltas: newStatCache[*deltaEntry](statBytes)}
	if d.secure == nil {
		d.secure = dictionary.SecureRequest
	}
	return d
}

// serveWithDictionary is serve with the dictionary steps around it: the
// response is marked as a dictionary when the configuration says so, and
// a delta sidecar is sent when the client has the dictionary it needs.
func (s *server) serveWithDictionary(w http.ResponseWriter, r *http.Request, res *resource) {
	if s.dict == nil || s.sidecarOf(res.name) != nil || deltaOriginal(res.name) != "" {
		s.serve(w, r, res)
		return
	}
	s.serveDictionarySteps(w, r, res)
}

// serveDictionarySteps is serveWithDictionary for a file the dictionary
// steps apply to. It is a function of its own so that its frame is not on
// the stack of every other response (see serveCompressed).
func (s *server) serveDictionarySteps(w http.ResponseWriter, r *http.Request, res *resource) {
	if s.dict.cfg.Match != nil {
		if match := s.dict.cfg.Match(res.name); match != "" {
			// An invalid pattern leaves the response unmarked; it is still
			// the right response.
			_ = dictionary.SetUseAs(w.Header(), dictionary.UseAs{
				Match: match, MatchDest: s.dict.cfg.MatchDest, MaxAge: s.dict.cfg.MaxAge,
			})
		}
	}
	if v := s.delta(r, res, w.Header()); v != nil {
		negotiate.AddVary(w.Header(), "Accept-Encoding", "Available-Dictionary") // RFC 9842 §6.2
		w.Header().Set("Content-Type", res.ctype)
		if s.serveFile(w, r, res, v) {
			return
		}
		s.dict.forget(v.name)
	}
	s.serve(w, r, res)
}

// delta returns the delta sidecar for this request, or nil: it needs the
// client to name dcz in Accept-Encoding at no lower a weight than the
// coding it would get otherwise (RFC 9842 §6.1), a secure context (§8), a
// response the requesting page may read (§9.3.3), and a delta made with
// the dictionary Available-Dictionary names that is not older than the
// original.
func (s *server) delta(r *http.Request, res *resource, respHeader http.Header) *variant {
	if _, ok := r.Header["Available-Dictionary"]; !ok || res.original == nil {
		return nil
	}
	a := negotiate.Parse(r.Header["Accept-Encoding"])
	q := a.Quality("dcz")
	if q == 0 || !s.dict.secure(r) || !dictionary.Readable(r, respHeader) {
		return nil
	}
	if coding, _ := a.Select(slices.Concat(res.offers, s.fallbackNames)...); q < a.Quality(coding) {
		return nil
	}
	hash, ok := dictionary.Available(r.Header)
	if !ok {
		return nil
	}
	name := DeltaName(res.name, hash)
	// Not s.hidden: HideSidecars hides deltas from direct requests only,
	// and the dot-file rule already passed for res.name, whose directory
	// and first letter the delta shares.
	if s.hide != nil && s.hide(name) {
		return nil
	}
	v := s.dict.lookup(s, name)
	if v == nil || !s.serveStale && olderThan(v.modTime, res.original.modTime) {
		return nil
	}
	return v
}

// lookup stats the delta name, trusting an earlier answer, found or not,
// for the FileServer's CheckInterval.
func (d *dictionaryServer) lookup(s *server, name string) *variant {
	e, _ := d.deltas.get(name)
	if e != nil && s.interval > 0 && time.Since(e.checked) < s.interval {
		return e.v
	}
	old := e
	e = &deltaEntry{checked: time.Now()}
	if fi, err := fs.Stat(s.fsys, name); err == nil && fi.Mode().IsRegular() {
		e.v = &variant{name: name, coding: "dcz", size: fi.Size(), modTime: fi.ModTime(), digest: new(digest)}
		if old != nil && old.v != nil && old.v.size == fi.Size() && old.v.modTime.Equal(fi.ModTime()) {
			e.v.digest = old.v.digest // unchanged: keep its hash
		}
	}
	// The name is DeltaName's own string, made for this request.
	d.deltas.put(name, e, variantCost)
	return e.v
}

// forget drops what the cache knows of the delta name, after it was found
// to have changed.
func (d *dictionaryServer) forget(name string) { d.deltas.remove(name) }
