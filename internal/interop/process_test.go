package interop

import (
	"strconv"
	"testing"
)

func TestStartStopsWholeGroupOnCleanup(t *testing.T) {
	sh := LookPath(t, "sh", "dash")
	var leader int
	t.Run("inner", func(t *testing.T) {
		// sleep is a child of the leader: cleanup must end it too.
		p := Start(t, sh.Command("-c", "sleep 300 & echo ready; wait"), OnLine("ready"))
		leader = p.Cmd.Process.Pid
		if !groupAlive(leader) {
			t.Fatalf("process group %d not running after Start", leader)
		}
	})
	if groupAlive(leader) {
		t.Fatalf("a process of group %d still runs after cleanup", leader)
	}
}

func TestStopIsIdempotent(t *testing.T) {
	sh := LookPath(t, "sh", "dash")
	p := Start(t, sh.Command("-c", "echo ready; exec sleep 300"), OnLine("ready"))
	p.Stop()
	p.Stop()
	if groupAlive(p.Cmd.Process.Pid) {
		t.Fatalf("%v still runs after Stop", p)
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
