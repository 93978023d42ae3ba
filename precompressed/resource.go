package precompressed

import (
	"cmp"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/httpfield"
)

// What the stat cache charges for a resource beyond its name: the
// resource with its slices, each file found, with its digest, and for a
// file compressed on the fly what its digest learns of that (a
// fallbackState with three codings, its sizes, its order and the header
// values of each coding's response).
const (
	resourceCost      = 192
	variantCost       = 160
	fallbackStateCost = 192 + 3*256
)

type kind uint8

const (
	kindNone kind = iota
	kindFile
	kindDir
)

// resource is what one name resolves to: the original file, the fresh
// sidecars beside it, and the facts about them that every request needs.
type resource struct {
	name       string
	kind       kind
	checked    time.Time
	forever    bool       // zero modification times: an immutable tree
	original   *variant   // nil when only sidecars exist
	sidecars   []*variant // smallest first, unless Config.PreferOrder
	offers     []string   // the sidecars' codings, in the same order, for negotiate.Select
	ctype      string
	ctypeValue []string // ctype as a header value, shared by every response
	fallback   bool     // compress the original on the fly
}

// variant is one file that can answer for a resource.
type variant struct {
	name    string
	coding  string // "" for the original
	size    int64
	modTime time.Time
	digest  *digest
}

// digest is the content hash of a variant, computed the first time it is
// served and carried over to later resolutions while size and modification
// time stay the same.
type digest struct {
	once sync.Once
	sum  string
	err  error
	// done is set once sum is known, so that a conditional request can be
	// answered without opening the file (known).
	done atomic.Bool
	// content is the full SHA-256 of the file once read, the address of
	// its entries in the fallback cache; a manifest's hash is too short to
	// be one.
	content atomic.Pointer[[sha256.Size]byte]
	// fallback is what serving the file from the fallback cache taught:
	// nil until it is, and for sidecars.
	fallback atomic.Pointer[fallbackState]
}

// knownDigest is a digest whose hash is already known, from a manifest.
func knownDigest(sum string) *digest {
	d := new(digest)
	d.once.Do(func() { d.sum = sum })
	d.done.Store(true)
	return d
}

// known returns the hash when it is known already, without reading.
func (d *digest) known() (string, bool) {
	if !d.done.Load() {
		return "", false
	}
	return d.sum, d.err == nil
}

// get returns the hash of the file f, reading it and seeking back to the
// start the first time.
func (d *digest) get(f io.ReadSeeker) (string, error) {
	d.once.Do(func() {
		h := sha256.New()
		if _, d.err = io.Copy(h, f); d.err == nil {
			_, d.err = f.Seek(0, io.SeekStart)
		}
		var full [sha256.Size]byte
		h.Sum(full[:0])
		d.sum = hashString(full[:])
		if d.err == nil {
			d.content.Store(&full)
		}
		d.done.Store(true)
	})
	return d.sum, d.err
}

// hashString is the ETag form of a SHA-256 sum: 96 bits, base64url, enough
// that two versions of a file never collide in a cache.
func hashString(sum []byte) string { return base64.RawURLEncoding.EncodeToString(sum[:12]) }

// lookup returns the resource name resolves to, from the cache while its
// stat results are fresh.
func (s *server) lookup(name string) *resource {
	old, _ := s.resources.get(name)
	if old != nil && (old.forever || (s.interval > 0 && time.Since(old.checked) < s.interval)) {
		return old
	}
	if old != nil {
		name = old.name
	} else {
		// The name may be a slice of the request line, query and all: the
		// cache keeps a copy of just the name.
		name = strings.Clone(name)
	}
	res := s.resolve(name, old)
	s.resources.put(name, res, res.cost())
	return res
}

// cost is what res is charged in the stat cache beyond its name: the
// sidecars' names are copies, the original's is the name itself.
func (res *resource) cost() int64 {
	n := int64(resourceCost)
	if res.fallback {
		n += fallbackStateCost
	}
	for _, v := range res.all() {
		n += variantCost
		if v.name != res.name {
			n += heapBytes(len(v.name))
		}
	}
	return n
}

// invalidate drops what the cache knows of name after a file was seen to
// differ from it.
func (s *server) invalidate(name string) { s.resources.remove(name) }

// resolve stats name and its sidecars. old, the previous resolution, lends
// its digests to files that did not change.
func (s *server) resolve(name string, old *resource) *resource {
	res := &resource{name: name, checked: time.Now()}
	fi, err := fs.Stat(s.fsys, name)
	if err == nil && fi.IsDir() {
		res.kind = kindDir
		res.forever = fi.ModTime().IsZero()
		return res
	}
	if err == nil && fi.Mode().IsRegular() {
		res.original = &variant{name: name, size: fi.Size(), modTime: fi.ModTime()}
		rec, listed := s.manifest.original(name, fi.Size())
		res.original.digest = s.digestFor(res.original, old, rec, listed)
	}
	direct := s.sidecarOf(name)
	delta := deltaOriginal(name) != ""
	if direct == nil && !delta {
		for _, sc := range s.sidecars {
			sname := name + sc.Ext
			if s.hide != nil && s.hide(sname) {
				continue
			}
			sfi, err := fs.Stat(s.fsys, sname)
			if err != nil || !sfi.Mode().IsRegular() {
				continue
			}
			if res.original != nil && !s.serveStale && olderThan(sfi.ModTime(), res.original.modTime) {
				continue // left over from an earlier build of the original
			}
			v := &variant{name: sname, coding: sc.Coding, size: sfi.Size(), modTime: sfi.ModTime()}
			if s.manifest == nil {
				v.digest = old.digestOf(v)
			} else if v.digest = s.vouched(res.original, v, sc.Ext, old); v.digest == nil {
				continue // not what Generate wrote beside this original
			}
			res.sidecars = append(res.sidecars, v)
		}
		if !s.preferOrder {
			// Smallest first: negotiate.Select breaks ties between equally
			// weighted codings by the order of its offers, so the client
			// gets the fewest bytes it accepts at its highest weight. The
			// sort is stable, so equal sizes keep the Sidecars order.
			slices.SortStableFunc(res.sidecars, func(a, b *variant) int { return cmp.Compare(a.size, b.size) })
		}
		for _, v := range res.sidecars {
			res.offers = append(res.offers, v.coding)
		}
	}
	if res.original == nil && len(res.sidecars) == 0 {
		res.forever = s.immutable()
		return res
	}
	res.kind = kindFile
	res.forever = true
	for _, v := range res.all() {
		res.forever = res.forever && v.modTime.IsZero()
	}
	switch {
	case direct != nil:
		res.ctype = archiveType(direct.Coding)
	case delta:
		// A delta requested by its own name: dcz is a content coding
		// with no media type (RFC 9842 §5), and the bytes are useless
		// without the dictionary, so they go as opaque data, without
		// Content-Encoding.
		res.ctype = "application/octet-stream"
	default:
		res.ctype = mime.TypeByExtension(path.Ext(name))
		if res.ctype == "" {
			res.ctype = s.sniff(res)
		}
	}
	res.ctypeValue = []string{res.ctype}
	res.fallback = len(s.fallback) > 0 && direct == nil && !delta && res.original != nil && len(res.sidecars) == 0 &&
		res.original.size >= s.minSize && res.original.size <= s.maxSize && encoding.CompressibleType(httpfield.MediaType(res.ctype))
	return res
}

// all returns the resource's variants, original first.
func (res *resource) all() []*variant {
	if res.original == nil {
		return res.sidecars
	}
	return append([]*variant{res.original}, res.sidecars...)
}

// digestOf returns the digest of v's unchanged counterpart in res, or a new
// one. res may be nil.
func (res *resource) digestOf(v *variant) *digest {
	if res != nil {
		for _, o := range res.all() {
			if o.name == v.name && o.size == v.size && o.modTime.Equal(v.modTime) {
				return o.digest
			}
		}
	}
	return new(digest)
}

// immutable reports whether a name found missing stays missing: an embedded
// tree cannot change.
func (s *server) immutable() bool {
	_, ok := s.fsys.(embed.FS)
	return ok
}

// sniff detects the type of a file whose extension says nothing, from the
// first 512 bytes of its original or of a decodable sidecar, as
// http.ServeContent would (RFC 9110 §8.3 leaves the choice to the server).
func (s *server) sniff(res *resource) string {
	const fallback = "application/octet-stream"
	var src *variant
	if res.original != nil {
		src = res.original
	} else if src = decodable(res.sidecars); src == nil {
		return fallback
	}
	f, err := s.fsys.Open(src.name)
	if err != nil {
		return fallback
	}
	defer f.Close()
	var r io.Reader = f
	if src.coding != "" {
		dec, err := newDecoder(src.coding, f)
		if err != nil {
			return fallback
		}
		defer dec.Close()
		r = dec
	}
	buf := make([]byte, 512)
	n, err := io.ReadFull(r, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fallback
	}
	return http.DetectContentType(buf[:n])
}

// archiveType is the Content-Type of a sidecar requested by its own name.
func archiveType(coding string) string {
	switch coding {
	case "gzip":
		return "application/gzip" // RFC 6713
	case "zstd":
		return "application/zstd" // RFC 8878 §8.1
	}
	return "application/octet-stream" // brotli has no registered media type
}

// olderThan reports whether a sidecar modified at sidecar is left over
// from an earlier build of an original modified at original: older than
// the second the original was modified in. The C tools copy the original's
// time to what they write in whole seconds (brotli -k does), so a sidecar
// made from the original reads as up to a second older than it on a file
// system that keeps finer times.
func olderThan(sidecar, original time.Time) bool {
	return sidecar.Before(original.Truncate(time.Second))
}
