package dictionary

import (
	"errors"
	"testing"
)

// TestZeroStoreSizeIsTheDocumentedDefault enforces DefaultStoreBytes as
// documented: a store made with a zero size keeps a dictionary of exactly
// 64 MiB and refuses one byte more with ErrTooLarge.
func TestZeroStoreSizeIsTheDocumentedDefault(t *testing.T) {
	if DefaultStoreBytes != 64<<20 {
		t.Fatalf("DefaultStoreBytes is %d; its doc comment says 64 MiB", DefaultStoreBytes)
	}
	s := NewStore(0)
	if _, err := s.Add(make([]byte, DefaultStoreBytes)); err != nil {
		t.Fatalf("adding a dictionary of exactly DefaultStoreBytes to NewStore(0): %v", err)
	}
	if _, err := s.Add(make([]byte, DefaultStoreBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("adding DefaultStoreBytes+1 bytes to NewStore(0): %v, want ErrTooLarge", err)
	}
}
