//go:build !((amd64 || arm64 || ppc64le) && !purego)

package deflate

import "encoding/binary"

// loadFast64 and loadFast32 are checked loads where load_unsafe.go is not
// built.
func loadFast64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8 : i+8]) }

func loadFast32(b []byte, i int) uint32 { return load32(b, i) }
