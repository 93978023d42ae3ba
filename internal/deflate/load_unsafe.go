//go:build (amd64 || arm64 || ppc64le) && !purego && !nounsafe

package deflate

import "unsafe"

// LoadFast64 and LoadFast32 read 8 and 4 bytes of b from i, little-endian,
// without checking bounds: a caller must know that 0 <= i and i+8 (i+4) <=
// len(b). They are for the match finders' loops, whose indexes are in
// bounds by construction (each use says why), and where checking them is
// a noticeable share of the zstd encoder's instructions on a small body,
// and as much again in MatchLenAt. This file is built only for little-endian architectures
// that load unaligned words; the purego or the nounsafe build tag (both of
// which klauspost/compress honours too), or any other architecture, gets
// the checked loads of load_safe.go. Under the race
// detector (go test -race, as CI runs the tests) the runtime's pointer
// checks fail a load that crosses the end of b's slot on the heap (its size
// class, so a body that fills it exactly, as the tests' do, is checked to
// its last byte); they see nothing on the stack or in unallocated memory.
func LoadFast64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

func LoadFast32(b []byte, i int) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// storeFast64 writes v to b[i:i+8], little-endian, without checking
// bounds: a caller must know that 0 <= i and i+8 <= len(b), as writeSeqs
// checks before each store.
func storeFast64(b []byte, i int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)) = v
}
