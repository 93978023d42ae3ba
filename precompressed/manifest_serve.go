package precompressed

import (
	"bytes"
	"errors"
	"io"
)

// errChanged reports a file that differs from its stat results.
var errChanged = errors.New("precompressed: file changed")

// original returns the manifest's record of the original name if it has
// that size; ok is false without a manifest or a matching record.
func (m *Manifest) original(name string, size int64) (f manifestFile, ok bool) {
	if m == nil {
		return f, false
	}
	f, ok = m.files[name]
	return f, ok && f.Size == size
}

// digestFor returns the digest of the original v: the manifest's hash when
// the tree is immutable and rec, its record, matches (no read needed), or
// else the one carried over from old, or a new one.
func (s *server) digestFor(v *variant, old *resource, rec manifestFile, listed bool) *digest {
	if listed && v.modTime.IsZero() {
		if sum := etagSum(rec.SHA256); sum != "" {
			return knownDigest(sum)
		}
	}
	return old.digestOf(v)
}

// vouched returns the digest of the sidecar v with extension ext if the
// manifest vouches for it beside orig (nil when the original is missing),
// or nil if it does not. In an immutable tree sizes decide and the digest
// is the manifest's; otherwise both files' hashes are checked, each
// computed once per version and kept for the ETags.
func (s *server) vouched(orig *variant, v *variant, ext string, old *resource) *digest {
	origName, origSize := v.name[:len(v.name)-len(ext)], int64(-1)
	if orig != nil {
		origSize = orig.size
	}
	rec, blob, ok := s.manifest.sidecar(origName, ext, origSize)
	if !ok || blob.Size != v.size {
		return nil
	}
	want := etagSum(blob.SHA256)
	if v.modTime.IsZero() && (orig == nil || orig.modTime.IsZero()) {
		return knownDigest(want)
	}
	if orig != nil {
		if sum, err := s.sumOf(orig); err != nil || sum != etagSum(rec.SHA256) {
			return nil // the original changed since Generate ran
		}
	}
	d := old.digestOf(v)
	v.digest = d
	if sum, err := s.sumOf(v); err != nil || sum != want {
		return nil
	}
	return d
}

// sumOf returns the content hash of v, reading the file only if its
// digest has not been computed yet. A file that no longer matches v's
// stat results has no valid hash.
func (s *server) sumOf(v *variant) (string, error) {
	f, err := s.fsys.Open(v.name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.Size() != v.size || !fi.ModTime().Equal(v.modTime) {
		return "", errChanged
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			return "", err
		}
		rs = bytes.NewReader(b)
	}
	return v.digest.get(rs)
}
