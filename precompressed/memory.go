package precompressed

import (
	"io"
	"net/http"
	"strconv"
	"time"
)

// heldFileCost is what the file cache charges a held file beyond its
// bytes and its name: the heldFile and its header values.
const heldFileCost = 320

// heldFile is a small file's bytes with the header values of a 200 that
// sends them.
type heldFile struct {
	digest *digest // the version held: a file changed on disk has another
	body   []byte
	*readyHeader
}

// readyHeader is the header values of a 200 that sends a variant, each a
// slice of one value ready to be put in a header as it is. They are shared
// by every response: their capacity is their length, so that an append
// copies them.
type readyHeader struct {
	sum          string // the hash the ETag is made of
	etag         []string
	lastModified []string // nil when the variant has no modification time
	length       []string
	encoding     []string // nil for identity
}

// newReadyHeader makes the header values of a variant in coding of size
// bytes, whose content hashes to sum.
func newReadyHeader(sum, coding string, modTime time.Time, size int) *readyHeader {
	rh := &readyHeader{sum: sum, etag: []string{etag(sum, coding)}}
	rh.lastModified, rh.length, rh.encoding = wholeHeader(coding, modTime, size)
	return rh
}

// wholeHeader returns the values writeWhole takes for size bytes in coding
// ("" for identity) last modified at modTime.
func wholeHeader(coding string, modTime time.Time, size int) (lastModified, length, encoding []string) {
	if !unknownTime(modTime) {
		lastModified = []string{modTime.UTC().Format(http.TimeFormat)}
	}
	if coding != "" {
		encoding = []string{coding}
	}
	return lastModified, []string{strconv.Itoa(size)}, encoding
}

// Header values that every held response shares.
var acceptRanges = []string{"bytes"}

// held returns v held in memory, reading it the first time and after it
// changed; nil when it is not held (too large, or no file cache), with ok
// true. ok is false, as from open, when v is no longer what res says.
func (s *server) held(res *resource, v *variant) (hf *heldFile, ok bool) {
	if s.files == nil || !s.holdable(v) {
		return nil, true
	}
	if hf, _ := s.files.get(v.name); hf != nil && hf.digest == v.digest {
		return hf, true
	}
	f, rs, ok := s.open(res, v)
	if !ok {
		return nil, false
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(rs, v.size+1))
	if err != nil {
		return nil, true // the file path reports it
	}
	if int64(len(body)) != v.size {
		s.invalidate(res.name)
		return nil, false
	}
	hr := &heldReader{b: body}
	hr.r.Reset(body)
	sum, err := v.digest.get(hr)
	if err != nil {
		return nil, true
	}
	hf = &heldFile{digest: v.digest, body: body, readyHeader: newReadyHeader(sum, v.coding, v.modTime, len(body))}
	s.files.put(v.name, hf, heapBytes(len(body))+heldFileCost)
	return hf, true
}

// holdable reports whether v fits in the file cache: its entry may take
// 1/64 of the budget, as every entry of a statCache.
func (s *server) holdable(v *variant) bool {
	cost := heapBytes(int(v.size)) + heldFileCost + heapBytes(len(v.name)) + statEntryOverhead
	return v.size <= s.files.budget && cost <= s.files.budget/statEntryShare
}

// unknownTime reports whether t says nothing, as http.ServeContent takes
// it: no Last-Modified then.
func unknownTime(t time.Time) bool { return t.IsZero() || t.Equal(time.Unix(0, 0)) }

// serveReady sends body, the variant in coding, with the header values
// of rh. A plain GET or HEAD, the common case, goes out as
// http.ServeContent would send it, without its work; conditional and
// range requests go through it.
func serveReady(w http.ResponseWriter, r *http.Request, coding string, modTime time.Time, body []byte, rh *readyHeader) {
	w.Header()["Etag"] = rh.etag
	if !plainRequest(r) {
		serveHeld(w, r, coding, modTime, body)
		return
	}
	writeWhole(w, r, body, rh.lastModified, rh.length, rh.encoding)
}

// plainRequest reports whether r asks for the whole representation with
// no condition: what http.ServeContent answers with a 200 of every byte.
func plainRequest(r *http.Request) bool {
	h := r.Header
	return h["Range"] == nil && h["If-Match"] == nil && h["If-None-Match"] == nil &&
		h["If-Modified-Since"] == nil && h["If-Unmodified-Since"] == nil && h["If-Range"] == nil
}

// writeWhole sends body as a 200 with the header http.ServeContent gives
// it: Last-Modified and Content-Encoding when not nil, Accept-Ranges,
// Content-Length; no body for HEAD.
func writeWhole(w http.ResponseWriter, r *http.Request, body []byte, lastModified, length, encoding []string) {
	h := w.Header()
	if lastModified != nil {
		h["Last-Modified"] = lastModified
	}
	h["Accept-Ranges"] = acceptRanges
	h["Content-Length"] = length
	if encoding != nil {
		h["Content-Encoding"] = encoding
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
