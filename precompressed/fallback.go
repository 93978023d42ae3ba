package precompressed

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// serveCompressed answers with the original compressed in coding, from
// the cache or compressed now, once. done is false, with nothing written,
// when the compressed form is no smaller than the file; ok is false, with
// nothing written and res forgotten, when the file's content is no longer
// what res says of it.
//
// The entry is the one encoding.Cache keys by content: the SHA-256 of the
// file, its size, the coding and the codec's default level, so that a
// middleware sharing the cache (Config.Cache) finds it for a handler that
// writes the same bytes, and the other way round. Since the key says what
// the entry holds for everyone who shares the cache, the bytes compressed
// are checked against the key's hash first: a file rewritten since its
// hash was taken, even at the same size and time, never fills the entry
// of its old content.
//
// Its frame and those of the calls under it are on the stack while the
// body is written, which is the deepest a response goes: the cache lookup
// is a function of its own so that its locals are not. A connection's
// goroutine whose stack outgrows its size copies it to a larger one, and
// the garbage collector shrinks an idle goroutine's stack again, so a few
// hundred bytes too many cost every connection a copy per collection,
// which a CPU profile of the server under load shows.
func (s *server) serveCompressed(w http.ResponseWriter, r *http.Request, res *resource, coding string) (done, ok bool) {
	ci := slices.Index(s.fallbackNames, coding) // coding was selected from them
	v := res.original
	e, made, err := s.fallbackEntry(v, ci)
	switch {
	case errors.Is(err, errChanged):
		s.invalidate(res.name)
		return false, false
	case err != nil:
		s.invalidate(res.name)
		http.Error(w, "500 cannot compress file", http.StatusInternalServerError)
		return true, true
	}
	body := e.Body()
	if body.Bytes == nil {
		return false, true
	}
	s.noteSent(r, v, ci, made)
	contentcache.Served(w, !made) // a middleware around the server counts it
	rh := s.fallbackHeader(v, ci, coding, body)
	if answerNotModified(w, r, rh.etag[0], v.modTime) {
		return true, true
	}
	serveReady(w, r, coding, v.modTime, body.Bytes, rh)
	return true, true
}

// fallbackEntry returns the cache's entry of v compressed by the fallback
// codec ci, compressing it if it is not there, and whether this call made
// it.
func (s *server) fallbackEntry(v *variant, ci int) (e *contentcache.Entry, made bool, err error) {
	codec := s.fallback[ci]
	_, _, level := codec.Levels()
	sum, src, err := s.contentSum(v)
	if err != nil {
		return nil, false, err
	}
	key := contentcache.Key{Sum: sum, Size: v.size, Coding: s.fallbackNames[ci], Level: level}
	e, made = s.cache.Do(key, func() ([]byte, error) {
		if src == nil {
			var err error
			if src, err = s.readSum(v, sum); err != nil {
				return nil, err
			}
		}
		return s.compress(v, src, codec, level)
	})
	return e, made, e.Err()
}

// fallbackHeader returns the header values of v compressed in coding, the
// fallback codec ci, as body holds it: kept in v's fallback state until the
// cache's bytes for it change (a recompression, or a miss made anew).
func (s *server) fallbackHeader(v *variant, ci int, coding string, body *contentcache.Body) *readyHeader {
	st := s.fallbackState(v)
	sum := body.Tag(bytesHash)
	if rh := st.ready[ci].Load(); rh != nil && rh.sum == sum {
		return rh
	}
	rh := newReadyHeader(sum, coding, v.modTime, len(body.Bytes))
	st.ready[ci].Store(rh)
	return rh
}

// bytesHash is the ETag hash of b, the form hashString gives.
func bytesHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hashString(sum[:])
}

// contentSum returns the SHA-256 of v's content: kept in its digest once
// known, or read now. src is the content when it had to be read, to be
// compressed without reading it again; nil otherwise.
func (s *server) contentSum(v *variant) (sum [sha256.Size]byte, src []byte, err error) {
	if p := v.digest.content.Load(); p != nil {
		return *p, nil, nil
	}
	if src, err = s.read(v); err != nil {
		return sum, nil, err
	}
	// A new array, not &sum: the address of a result would move it to
	// the heap on every call, the common one that finds it kept included.
	p := new([sha256.Size]byte)
	*p = sha256.Sum256(src)
	v.digest.content.Store(p)
	return *p, src, nil
}

// read returns the content of v, or errChanged when it no longer has v's
// size.
func (s *server) read(v *variant) ([]byte, error) {
	f, err := s.fsys.Open(v.name)
	if err != nil {
		return nil, errChanged
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, v.size+1))
	if err != nil {
		return nil, fmt.Errorf("precompressed: reading %s: %w", v.name, err)
	}
	if int64(len(src)) != v.size {
		return nil, errChanged
	}
	return src, nil
}

// readSum returns the content of v, or errChanged when it no longer
// hashes to sum.
func (s *server) readSum(v *variant, sum [sha256.Size]byte) ([]byte, error) {
	src, err := s.read(v)
	if err != nil {
		return nil, err
	}
	if sha256.Sum256(src) != sum {
		return nil, errChanged
	}
	return src, nil
}

// compress encodes src, the content of v, with codec at level, returning
// nil when the result is not smaller.
func (s *server) compress(v *variant, src []byte, codec encoding.Codec, level int) ([]byte, error) {
	var out []byte
	var err error
	if ae, ok := codec.(encoding.AppendEncoder); ok {
		out, err = ae.AppendEncode(nil, src, level)
	} else {
		out, err = encodeStream(codec, src, level)
	}
	if err != nil {
		return nil, fmt.Errorf("precompressed: %s %s: %w", codec.Name(), v.name, err)
	}
	if len(out) >= len(src) {
		return nil, nil
	}
	return out, nil
}

// encodeStream encodes src through codec's streaming Writer.
func encodeStream(codec encoding.Codec, src []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := codec.NewWriter(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(src); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
