//go:build !((amd64 || arm64 || ppc64le) && !purego && !nounsafe)

package deflate

import "encoding/binary"

// LoadFast64 and LoadFast32 are checked loads where load_unsafe.go is not
// built. They check against len(b), not its capacity (as load32's
// three-index slice would), so that this build, which CI tests too, fails
// on a read past the body even into spare capacity.
func LoadFast64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }

func LoadFast32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i:]) }

// storeFast64 is a checked store where load_unsafe.go is not built.
func storeFast64(b []byte, i int, v uint64) { binary.LittleEndian.PutUint64(b[i:], v) }
