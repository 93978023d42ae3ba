package interop

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"
)

// PeersEnv is the environment variable that runs the suites driving real
// peers. Without it (or SQUEEZE_INTEROP=require) go test runs only the tests
// that need nothing but Go, and every finder skips.
const PeersEnv = "SQUEEZE_PEERS"

// peersSkipped is the line printed once per test binary when the gate skips
// its first test.
const peersSkipped = "peer suites skipped: set " + PeersEnv + "=1 to run the tests that drive curl, Chromium, nginx, " +
	"Python, Node and the demo binary (" + RequireEnv + "=require also runs them and makes a missing peer fail)"

// skipOnce prints peersSkipped at most once per test binary, so a package
// with many peer tests says it in one line instead of one per test.
var skipOnce sync.Once

// PeersRun reports whether the suites that drive real peers run: when
// SQUEEZE_PEERS is set to anything but "" or "0", or SQUEEZE_INTEROP=require.
func PeersRun() bool { return peersOpen(os.Getenv(PeersEnv), os.Getenv(RequireEnv)) }

// peersOpen is the decision behind PeersRun, kept pure so it can be tested
// without touching the process environment.
func peersOpen(peers, require string) bool {
	return (peers != "" && peers != "0") || mustFail(require)
}

// Peers skips t unless the peer suites run (see PeersRun). Every finder calls
// it first; a test that drives a peer no finder covers, such as a program it
// builds and starts, calls it itself. The first skip in a test binary prints
// one line saying how to run the suites; the others skip silently. A
// benchmark, or a fuzz target run with -fuzz, always passes: asking for it is
// asking for its peers.
func Peers(t testing.TB) {
	t.Helper()
	if PeersRun() || explicit(t) {
		return
	}
	skipOnce.Do(func() { fmt.Println(peersSkipped) })
	t.SkipNow()
}

// explicit reports whether t is a run the user asked for by name: a
// benchmark, or the fuzz target that -fuzz fuzzes.
func explicit(t testing.TB) bool {
	switch t.(type) {
	case *testing.B:
		return true
	case *testing.F:
		f := flag.Lookup("test.fuzz")
		return f != nil && f.Value.String() != ""
	}
	return false
}
