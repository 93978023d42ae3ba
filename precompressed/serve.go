package precompressed

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/negotiate"
)

// serve answers a request for a file resource with the variant the client
// should get. A file that changed since it was statted is looked up again,
// once, so that an edit under a running server costs no failed request.
func (s *server) serve(w http.ResponseWriter, r *http.Request, res *resource) {
	if s.serveVariant(w, r, res) {
		return
	}
	if res = s.lookup(res.name); res.kind != kindFile {
		http.NotFound(w, r)
		return
	}
	if !s.serveVariant(w, r, res) {
		http.Error(w, "503 file changing while being served, retry", http.StatusServiceUnavailable)
	}
}

// serveVariant is serve without the retry: it reports false, having
// written no status, when a file differs from what res says of it.
func (s *server) serveVariant(w http.ResponseWriter, r *http.Request, res *resource) bool {
	h := w.Header()
	if len(res.offers) > 0 || res.fallback {
		// RFC 9110 §12.5.5: every response of a negotiated resource, the
		// identity one and 304s included, says what it varies on.
		negotiate.AddVary(h, "Accept-Encoding")
	}
	h["Content-Type"] = res.ctypeValue
	if len(res.sidecars) > 0 {
		coding, _ := negotiate.Select(r.Header, res.offers...)
		switch {
		case coding != "":
			for _, v := range res.sidecars {
				if v.coding == coding {
					return s.serveFile(w, r, res, v)
				}
			}
		case res.original != nil:
			return s.serveFile(w, r, res, res.original)
		}
		return s.serveDecoded(w, r, res)
	}
	if res.fallback {
		// A client that excludes identity still gets it when nothing else
		// is acceptable, as RFC 9110 §12.5.3 lets a server do.
		if coding, _ := negotiate.Select(r.Header, s.fallbackOffers(res.original)...); coding != "" {
			switch done, ok := s.serveCompressed(w, r, res, coding); {
			case !ok:
				return false
			case done:
				return true
			}
		}
	}
	return s.serveFile(w, r, res, res.original)
}

// serveFile sends the file v through http.ServeContent, which implements
// Range, If-Range, If-Match, If-None-Match, If-Modified-Since and HEAD
// (RFC 9110 §13, §14) on the bytes of v, the encoded ones for a sidecar
// (RFC 9110 §14.1.1: ranges are of the selected representation).
func (s *server) serveFile(w http.ResponseWriter, r *http.Request, res *resource, v *variant) bool {
	if sum, ok := v.digest.known(); ok && mayBeNotModified(r) && answerNotModified(w, r, etag(sum, v.coding), v.modTime) {
		return true
	}
	switch hf, ok := s.held(res, v); {
	case !ok:
		return false
	case hf != nil:
		serveReady(w, r, v.coding, v.modTime, hf.body, hf.readyHeader)
		return true
	}
	f, rs, sum, ok := s.openHashed(w, res, v)
	if !ok {
		return false
	}
	if f == nil {
		return true // answered: v could not be read
	}
	defer f.Close()
	w.Header().Set("ETag", etag(sum, v.coding))
	http.ServeContent(codingWriter(w, v.coding), r, "", v.modTime, rs)
	return true
}

// openHashed is open that also reads v's content hash. It reports ok
// false, as open does, when res is stale; when v cannot be read it answers
// 500 itself and returns a nil f.
func (s *server) openHashed(w http.ResponseWriter, res *resource, v *variant) (f fs.File, rs io.ReadSeeker, sum string, ok bool) {
	if f, rs, ok = s.open(res, v); !ok {
		return nil, nil, "", false
	}
	sum, err := v.digest.get(rs)
	if err != nil {
		f.Close()
		s.invalidate(res.name)
		http.Error(w, "500 cannot read file", http.StatusInternalServerError)
		return nil, nil, "", true
	}
	return f, rs, sum, true
}

// open opens v, checking with the one fstat a file server makes anyway that
// it is still the file res was resolved to. When it is not, open forgets
// res and reports false.
func (s *server) open(res *resource, v *variant) (fs.File, io.ReadSeeker, bool) {
	f, err := s.fsys.Open(v.name)
	if err != nil {
		s.invalidate(res.name)
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() != v.size || !fi.ModTime().Equal(v.modTime) {
		f.Close()
		s.invalidate(res.name)
		return nil, nil, false
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		// Only an unusual fs.FS lacks Seek; ServeContent needs it.
		b, err := io.ReadAll(f)
		if err != nil {
			f.Close()
			s.invalidate(res.name)
			return nil, nil, false
		}
		rs = bytes.NewReader(b)
	}
	return f, rs, true
}

// etag is the strong entity tag of a variant whose bytes hash to sum. The
// coding is part of it so that no two variants share a tag even in a cache
// that ignores Vary (RFC 9110 §8.8.3.3).
func etag(sum, coding string) string {
	if coding == "" {
		return `"` + sum + `"`
	}
	return `"` + sum + "-" + coding + `"`
}

// codingWriter returns w, adding Content-Encoding: coding to a 200 or 206.
// Setting it only then keeps it off 304, 412 and 416, and lets
// http.ServeContent send Content-Length, which it omits when it sees
// Content-Encoding already set.
func codingWriter(w http.ResponseWriter, coding string) http.ResponseWriter {
	if coding == "" {
		return w
	}
	return &encodedWriter{ResponseWriter: w, coding: coding}
}

type encodedWriter struct {
	http.ResponseWriter
	coding      string
	wroteHeader bool
}

func (w *encodedWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		if w.coding != "" && (code == http.StatusOK || code == http.StatusPartialContent) {
			w.Header().Set("Content-Encoding", w.coding)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *encodedWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// ReadFrom hands the copy to the connection's own ReadFrom, so that a file
// still goes out with sendfile, and writes bytes held in memory as they are
// (writeHeld).
func (w *encodedWriter) ReadFrom(r io.Reader) (int64, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if n, ok, err := writeHeld(w.ResponseWriter, r); ok {
		return n, err
	}
	return io.Copy(w.ResponseWriter, r)
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *encodedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveDecoded answers a client that accepts none of the sidecars of a
// resource whose original is missing, by decoding one. The decoded bytes
// are kept in the fallback cache when they fit (serveDecodedCached);
// otherwise they are decoded as they are sent, their length is not known in
// advance, so there is no Range and the ETag is weak (RFC 9110 §8.8.1).
func (s *server) serveDecoded(w http.ResponseWriter, r *http.Request, res *resource) bool {
	v := decodable(res.sidecars)
	if v == nil {
		http.Error(w, "406 not acceptable: no representation in an acceptable coding", http.StatusNotAcceptable)
		return true
	}
	if done, ok := s.serveDecodedCached(w, r, res, v); done || !ok {
		return ok
	}
	f, rs, sum, ok := s.openHashed(w, res, v)
	if !ok {
		return false
	}
	if f == nil {
		return true // answered: v could not be read
	}
	defer f.Close()
	tag := `W/"` + sum + "-" + v.coding + `-decoded"`
	h := w.Header()
	h.Set("ETag", tag)
	if !v.modTime.IsZero() {
		h.Set("Last-Modified", v.modTime.UTC().Format(http.TimeFormat))
	}
	if code := weakPreconditions(r, tag, v.modTime); code != 0 {
		if code == http.StatusNotModified {
			h.Del("Content-Type")
			w.WriteHeader(code)
			return true
		}
		http.Error(w, "412 precondition failed", code)
		return true
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return true
	}
	dec, err := newDecoder(v.coding, rs)
	if err != nil {
		http.Error(w, "500 cannot decode sidecar", http.StatusInternalServerError)
		return true
	}
	defer dec.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := dec.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return true // the client is gone
			}
		}
		if err == io.EOF {
			return true
		}
		if err != nil {
			// A corrupt sidecar, found with the status already sent:
			// aborting the response is the only way left to tell the
			// client that the body is incomplete, not whole.
			panic(http.ErrAbortHandler)
		}
	}
}

// answerNotModified answers a GET or HEAD with 304 when it names tag, the
// strong ETag of the variant about to be sent, in If-None-Match, or
// without that has an If-Modified-Since not before modTime (RFC 9110
// §13.1.2, §13.1.3): from what the stat cache knows, before the file is
// opened. Every field line of If-None-Match counts, the ones after the
// first that a middleware suffixing tags per coding leaves as the client
// sent them included. A request with If-Match or If-Unmodified-Since,
// which come first (§13.2.2), is left to http.ServeContent.
func answerNotModified(w http.ResponseWriter, r *http.Request, tag string, modTime time.Time) bool {
	if !mayBeNotModified(r) || !unmodified(r, tag, modTime) {
		return false
	}
	// RFC 9110 §15.4.5: the 200's ETag and Vary, without the metadata of
	// a body, as http.ServeContent sends it.
	wh := w.Header()
	wh.Set("ETag", tag)
	delete(wh, "Content-Type")
	w.WriteHeader(http.StatusNotModified)
	return true
}

// mayBeNotModified reports whether r's conditions are the ones a 304
// answers (If-None-Match or If-Modified-Since, and neither If-Match nor
// If-Unmodified-Since), so that a request without them costs no tag.
func mayBeNotModified(r *http.Request) bool {
	h := r.Header
	return (h["If-None-Match"] != nil || h["If-Modified-Since"] != nil) && h["If-Match"] == nil && h["If-Unmodified-Since"] == nil
}

// weakPreconditions evaluates RFC 9110 §13.2.2 for a representation whose
// only validator is the weak tag: If-Match needs a strong match, which a
// weak tag never gives (§13.1.1). It returns 412, 304 or 0 to go on.
func weakPreconditions(r *http.Request, tag string, modTime time.Time) int {
	if im := r.Header.Get("If-Match"); im != "" && strings.TrimSpace(im) != "*" {
		return http.StatusPreconditionFailed
	}
	if unmodified(r, tag, modTime) {
		return http.StatusNotModified
	}
	return 0
}

// unmodified reports whether If-None-Match lists tag, by the weak
// comparison (RFC 9110 §13.1.2), or, without If-None-Match, whether
// If-Modified-Since is not before modTime (§13.1.3).
func unmodified(r *http.Request, tag string, modTime time.Time) bool {
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
		opaque := strings.TrimPrefix(tag, "W/")
		for _, line := range inm {
			for _, t := range strings.Split(line, ",") {
				t = strings.TrimSpace(t)
				if t == "*" || strings.TrimPrefix(t, "W/") == opaque {
					return true
				}
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !modTime.IsZero() {
		if t, err := http.ParseTime(ims); err == nil && !modTime.Truncate(time.Second).After(t) {
			return true
		}
	}
	return false
}
