package interop

import (
	"strconv"
	"syscall"
	"testing"
)

func TestStartStopsWholeGroupOnCleanup(t *testing.T) {
	sh := LookPath(t, "sh", "dash")
	var leader int
	t.Run("inner", func(t *testing.T) {
		// The child sleep outlives nothing: both must be gone after cleanup.
		p := Start(t, sh.Command("-c", "sleep 300 & echo ready; wait"), OnLine("ready"))
		leader = p.Cmd.Process.Pid
		if !groupAlive(leader) {
			t.Fatalf("process group %d not running after Start", leader)
		}
	})
	if err := syscall.Kill(-leader, 0); err != syscall.ESRCH {
		t.Fatalf("process group %d still exists after cleanup (kill: %v)", leader, err)
	}
}

func TestStartWaitsForPort(t *testing.T) {
	py := Python(t, "http.server")
	port := FreePort(t)
	p := Start(t, py.Command("-m", "http.server", "--bind", "127.0.0.1", strconv.Itoa(port)), OnPort(port))
	if !dialable("127.0.0.1:" + strconv.Itoa(port)) {
		t.Fatalf("%v: port %d not accepting after Start returned", p, port)
	}
}
