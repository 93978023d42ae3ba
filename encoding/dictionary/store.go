package dictionary

import (
	"container/list"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
)

// DefaultStoreBytes is the budget of a Store made with a zero size: 64 MiB
// of dictionary bytes.
const DefaultStoreBytes = 64 << 20

// ErrTooLarge is returned by Store.Add for a dictionary larger than the
// store's whole budget.
var ErrTooLarge = errors.New("dictionary: larger than the store's budget")

// Store holds the dictionaries a server can compress with, keyed by their
// SHA-256 and never by a client-supplied id (RFC 9842 §2.1.3: the id "MUST
// NOT be relied upon ... to guarantee the contents"). It is bounded by the
// bytes it keeps: adding past the budget drops the least recently used
// dictionaries. It is safe for concurrent use.
type Store struct {
	mu     sync.Mutex
	budget int64
	used   int64
	lru    list.List // of *Dictionary, most recently used first
	byHash map[[sha256.Size]byte]*list.Element
}

// NewStore returns a store that keeps at most maxBytes of dictionaries; 0
// means DefaultStoreBytes, and a negative value makes it panic, as a
// misconfiguration found where the store is made. The encoders each
// dictionary builds on first use (see Dictionary) come on top of that.
func NewStore(maxBytes int64) *Store {
	switch {
	case maxBytes < 0:
		panic(fmt.Sprintf("dictionary: NewStore: maxBytes %d is negative; 0 means DefaultStoreBytes", maxBytes))
	case maxBytes == 0:
		maxBytes = DefaultStoreBytes
	}
	return &Store{budget: maxBytes, byHash: make(map[[sha256.Size]byte]*list.Element)}
}

// Add adds the dictionary made of raw, such as the previous build of an
// asset read with os.ReadFile, and returns it. The store keeps raw: the
// caller must not modify it. Adding bytes the store holds already returns
// the dictionary it has; adding past the budget evicts the least recently
// used dictionaries, and a dictionary larger than the whole budget is
// refused with ErrTooLarge.
func (s *Store) Add(raw []byte) (*Dictionary, error) {
	if int64(len(raw)) > s.budget {
		return nil, fmt.Errorf("%w: %d bytes, budget %d", ErrTooLarge, len(raw), s.budget)
	}
	hash := sha256.Sum256(raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byHash[hash]; ok {
		s.lru.MoveToFront(e)
		return e.Value.(*Dictionary), nil
	}
	d := newDictionary(raw, hash)
	s.byHash[hash] = s.lru.PushFront(d)
	s.used += int64(d.Len())
	for s.used > s.budget {
		oldest := s.lru.Back()
		victim := oldest.Value.(*Dictionary)
		s.lru.Remove(oldest)
		delete(s.byHash, victim.hash)
		s.used -= int64(victim.Len())
	}
	return d, nil
}

// Lookup returns the dictionary whose SHA-256 is hash, or nil. A hit counts
// as a use for the least-recently-used order.
func (s *Store) Lookup(hash [sha256.Size]byte) *Dictionary {
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
func (s *Store) Remove(hash [sha256.Size]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byHash[hash]; ok {
		s.lru.Remove(e)
		delete(s.byHash, hash)
		s.used -= int64(e.Value.(*Dictionary).Len())
	}
}

// Bytes returns how many dictionary bytes the store holds.
func (s *Store) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}
