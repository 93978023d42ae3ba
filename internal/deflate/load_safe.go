//go:build !((amd64 || arm64 || ppc64le) && !purego)

package deflate

// loadFast64 and loadFast32 are load64 and load32 where load_unsafe.go is
// not built.
func loadFast64(b []byte, i int) uint64 { return load64(b, i) }

func loadFast32(b []byte, i int) uint32 { return load32(b, i) }
