package encoding

import (
	"container/list"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Dictionary is a raw compression dictionary (RFC 9842 §2.1.4, type raw):
// the bytes of a response a client kept, usually an earlier version of the
// resource being sent, named by their SHA-256. It is safe for concurrent
// use and immutable.
//
// A Dictionary builds its zstd encoder the first time it is used at each of
// zstd's four speeds, and keeps it: for a 90 KB dictionary, measured, about
// 4.5 MB at levels 2..5 per CPU encoding with it at once, and about 100 MB
// at levels 10..22 (the middleware's DictionaryLevel; GenerateDelta's
// dictionaries are dropped after use).
type Dictionary struct {
	raw  []byte
	hash [sha256.Size]byte

	// shared holds, per zstd speed, the encoder that AppendDCZ uses for every
	// body (EncodeAll is safe for concurrent use), made on first use.
	shared [zstd.SpeedBestCompression + 1]func() (*zstd.Encoder, error)

	offersMu sync.Mutex
	offers   map[int]*offer // the middleware's dcz offer per level
}

// NewDictionary returns the dictionary made of raw, which it keeps: the
// caller must not modify raw afterwards.
func NewDictionary(raw []byte) *Dictionary {
	d := &Dictionary{raw: raw, hash: sha256.Sum256(raw)}
	window := dczEncoderWindow(len(raw))
	for speed := zstd.SpeedFastest; speed <= zstd.SpeedBestCompression; speed++ {
		d.shared[speed] = sync.OnceValues(func() (*zstd.Encoder, error) {
			return zstd.NewWriter(nil, zstd.WithEncoderLevel(speed), zstd.WithEncoderCRC(false),
				zstd.WithWindowSize(window), zstd.WithLowerEncoderMem(true),
				zstd.WithEncoderDictRaw(0, d.raw))
		})
	}
	return d
}

// Hash returns the SHA-256 of the dictionary's bytes, which clients name it
// by in Available-Dictionary (RFC 9842 §2.2).
func (d *Dictionary) Hash() [sha256.Size]byte { return d.hash }

// Len returns the dictionary's size in bytes.
func (d *Dictionary) Len() int { return len(d.raw) }

// Bytes returns the dictionary's bytes, which the caller must not modify.
func (d *Dictionary) Bytes() []byte { return d.raw }

// tag is a short form of the hash for ETags: 64 bits, base64url.
func (d *Dictionary) tag() string { return base64.RawURLEncoding.EncodeToString(d.hash[:8]) }

// DefaultDictionaryStoreBytes is the budget of a DictionaryStore made with
// a zero size: 64 MiB of dictionary bytes.
const DefaultDictionaryStoreBytes = 64 << 20

// ErrDictionaryTooLarge is returned by DictionaryStore.Add for a dictionary
// larger than the store's whole budget.
var ErrDictionaryTooLarge = errors.New("encoding: dictionary larger than the store's budget")

// DictionaryStore holds the dictionaries a server can compress with, keyed
// by their SHA-256 and never by a client-supplied id (RFC 9842 §2.1.3: the
// id "MUST NOT be relied upon ... to guarantee the contents"). It is
// bounded by the bytes it keeps: adding past the budget drops the least
// recently used dictionaries. It is safe for concurrent use.
type DictionaryStore struct {
	mu     sync.Mutex
	budget int64
	used   int64
	lru    list.List // of *Dictionary, most recently used first
	byHash map[[sha256.Size]byte]*list.Element
}

// NewDictionaryStore returns a store that keeps at most maxBytes of
// dictionaries; 0 means DefaultDictionaryStoreBytes. The encoders each
// dictionary builds on first use (see Dictionary) come on top of that.
func NewDictionaryStore(maxBytes int64) *DictionaryStore {
	if maxBytes <= 0 {
		maxBytes = DefaultDictionaryStoreBytes
	}
	return &DictionaryStore{budget: maxBytes, byHash: make(map[[sha256.Size]byte]*list.Element)}
}

// Add adds the dictionary made of raw, which the store keeps (the caller
// must not modify it), and returns it; adding bytes the store holds already
// returns the dictionary it has.
func (s *DictionaryStore) Add(raw []byte) (*Dictionary, error) {
	if int64(len(raw)) > s.budget {
		return nil, fmt.Errorf("%w: %d bytes, budget %d", ErrDictionaryTooLarge, len(raw), s.budget)
	}
	return s.AddDictionary(NewDictionary(raw)), nil
}

// AddFile adds the file name of fsys as a dictionary, such as the previous
// build of an asset.
func (s *DictionaryStore) AddFile(fsys fs.FS, name string) (*Dictionary, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("encoding: dictionary: %w", err)
	}
	return s.Add(raw)
}

// AddDictionary adds d and returns it, or the dictionary with the same
// bytes that the store holds already, evicting the least recently used
// dictionaries beyond the budget. It returns nil, adding nothing, when d is
// larger than the whole budget.
func (s *DictionaryStore) AddDictionary(d *Dictionary) *Dictionary {
	if int64(d.Len()) > s.budget {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byHash[d.hash]; ok {
		s.lru.MoveToFront(e)
		return e.Value.(*Dictionary)
	}
	s.byHash[d.hash] = s.lru.PushFront(d)
	s.used += int64(d.Len())
	for s.used > s.budget {
		oldest := s.lru.Back()
		victim := oldest.Value.(*Dictionary)
		s.lru.Remove(oldest)
		delete(s.byHash, victim.hash)
		s.used -= int64(victim.Len())
	}
	return d
}

// Lookup returns the dictionary whose SHA-256 is hash, or nil.
func (s *DictionaryStore) Lookup(hash [sha256.Size]byte) *Dictionary {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byHash[hash]
	if !ok {
		return nil
	}
	s.lru.MoveToFront(e)
	return e.Value.(*Dictionary)
}

// Remove drops the dictionary whose SHA-256 is hash, if the store has it.
func (s *DictionaryStore) Remove(hash [sha256.Size]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byHash[hash]; ok {
		s.lru.Remove(e)
		delete(s.byHash, hash)
		s.used -= int64(e.Value.(*Dictionary).Len())
	}
}

// Bytes returns how many dictionary bytes the store holds.
func (s *DictionaryStore) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}
