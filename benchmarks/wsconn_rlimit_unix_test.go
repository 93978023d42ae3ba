//go:build unix

package benchmarks

import (
	"syscall"
	"testing"
)

// raiseFileLimit makes room for n connection pairs in this process: two
// sockets per pair (client and server end) and some to spare. Raising the
// hard limit needs privileges; without them the soft limit goes as high as
// the hard one allows and the benchmark says how many pairs that leaves.
func raiseFileLimit(b *testing.B, n int) {
	need := uint64(2*n + 256)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur >= need {
		return
	}
	want := syscall.Rlimit{Cur: need, Max: max(lim.Max, need)}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err == nil {
		return
	}
	want = syscall.Rlimit{Cur: lim.Max, Max: lim.Max}
	_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want)
	if lim.Max < need {
		b.Fatalf("%d pairs need %d file descriptors; the hard limit is %d and could not be raised (SQUEEZE_WS_TRANSPORT=pipe avoids sockets)", n, need, lim.Max)
	}
}
