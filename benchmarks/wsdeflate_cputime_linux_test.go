//go:build linux

package benchmarks

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID). With the goroutine locked to its thread it
// measures one implementation's own work, which a loaded machine inflates
// far less than wall time; work the runtime does on other threads (GC)
// is not counted, which flatters allocation-heavy peers.
func threadCPU() (time.Duration, bool) {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// processCPU returns the user and system CPU time the whole process has
// used (getrusage): for an echo over loopback it counts both ends, the
// garbage collector and the kernel's TCP work, and a loaded machine
// inflates it far less than wall time.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
