package precompressed

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// decodable returns the first of sidecars whose coding this package can
// decode, or nil.
func decodable(sidecars []*variant) *variant {
	for _, v := range sidecars {
		switch v.coding {
		case "gzip", "br", "zstd":
			return v
		}
	}
	return nil
}

// newDecoder returns a reader of the decoded content of r, which holds
// coding. Close releases it.
func newDecoder(coding string, r io.Reader) (io.ReadCloser, error) {
	switch coding {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("precompressed: gzip sidecar: %w", err)
		}
		return zr, nil
	case "br":
		return io.NopCloser(brotli.NewReader(r)), nil
	case "zstd":
		// One goroutine: a sidecar is decoded for one slow client, and the
		// default spawns one per core.
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("precompressed: zstd sidecar: %w", err)
		}
		return zr.IOReadCloser(), nil
	}
	return nil, fmt.Errorf("precompressed: cannot decode coding %q", coding)
}

// serveDecodedCached serves the decoded content of the sidecar v from the
// fallback cache, decoding it once: the bytes are then known whole, so the
// response is an ordinary one through http.ServeContent, with
// Content-Length, Range and a strong ETag that is the hash of the decoded
// bytes, the same the original would have. done is false, with nothing
// written, when there is no cache or the content is larger than a cache
// entry may be; ok is false, as from open, when v changed.
func (s *server) serveDecodedCached(w http.ResponseWriter, r *http.Request, res *resource, v *variant) (done, ok bool) {
	if s.cache == nil {
		return false, true
	}
	e, _ := s.cache.Do(decodedKey(v), func() ([]byte, error) { return s.decodeWhole(v) })
	switch err := e.Err(); {
	case errors.Is(err, errChanged):
		s.invalidate(res.name)
		return true, false
	case err != nil:
		// Found before any header went out, unlike a corruption met while
		// streaming.
		s.invalidate(res.name)
		http.Error(w, "500 cannot decode sidecar", http.StatusInternalServerError)
		return true, true
	}
	body := e.Body()
	if body.Bytes == nil {
		return false, true
	}
	w.Header().Set("ETag", etag(body.Tag(bytesHash), ""))
	serveHeld(w, r, "", v.modTime, body.Bytes)
	return true, true
}

// decodedKey is the cache key of the decoded content of the sidecar v.
// Unlike the fallback's entries it is addressed by the sidecar's version,
// its name, size and modification time, since it is known before the
// content is: its Sum hashes those, and Decoded keeps it apart from the
// entries that hash content.
func decodedKey(v *variant) contentcache.Key {
	version := fmt.Appendf(nil, "%s\x00%d\x00%d", v.name, v.size, v.modTime.UnixNano())
	return contentcache.Key{Sum: sha256.Sum256(version), Size: v.size, Coding: v.coding, Decoded: true}
}

// decodeWhole returns the decoded content of v, or nil when it is larger
// than a cache entry may be. The nil is cached too, so that a large
// sidecar is not decoded once to learn its size and again to send it on
// every request.
func (s *server) decodeWhole(v *variant) ([]byte, error) {
	f, err := s.fsys.Open(v.name)
	if err != nil {
		return nil, errChanged
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != v.size || !fi.ModTime().Equal(v.modTime) {
		return nil, errChanged
	}
	dec, err := newDecoder(v.coding, f)
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	b, err := io.ReadAll(io.LimitReader(dec, s.maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("precompressed: decoding %s: %w", v.name, err)
	}
	if int64(len(b)) > s.maxSize {
		return nil, nil
	}
	return b, nil
}
