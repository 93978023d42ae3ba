package interop

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// StartTimeout bounds how long Start waits for a peer to become ready.
const StartTimeout = 30 * time.Second

// Ready says when a started peer is ready for the test: see OnLine and
// OnPort. The zero Ready is ready as soon as the process has started.
type Ready struct {
	line string // substring of a line of output
	addr string // TCP address that accepts connections
}

// OnLine is ready once the peer prints a line, on stdout or stderr,
// containing substr. Python servers should run with -u so it is not buffered.
func OnLine(substr string) Ready { return Ready{line: substr} }

// OnPort is ready once 127.0.0.1:port accepts a TCP connection.
func OnPort(port int) Ready { return Ready{addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))} }

// Process is a long-running peer started by Start.
type Process struct {
	// Cmd is the running command.
	Cmd *exec.Cmd

	out  lockedBuffer // stdout and stderr, interleaved as written
	done chan struct{}
	err  error // Wait's result, valid once done is closed
}

// Start starts cmd in its own process group, waits until ready (at most
// StartTimeout) and registers a cleanup that stops the whole group: SIGTERM,
// then SIGKILL. Its output is logged when the test fails. If the peer exits
// or is not ready in time, the test fails with what it printed.
func Start(t testing.TB, cmd *exec.Cmd, ready Ready) *Process {
	t.Helper()
	p := &Process{Cmd: cmd, done: make(chan struct{})}
	lines := make(chan struct{})
	seen := false
	p.out.onWrite = func(all []byte) {
		// Called under the buffer's lock, so seen needs no other guard.
		if !seen && ready.line != "" && bytes.Contains(all, []byte(ready.line)) {
			seen = true
			close(lines)
		}
	}
	cmd.Stdout, cmd.Stderr = &p.out, &p.out
	inGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("interop: start %s: %v", cmd.Path, err)
	}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("interop: output of %s:\n%s", p.describe(), p.Output())
		}
	})

	deadline := time.After(StartTimeout)
	if ready.addr != "" {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for !dialable(ready.addr) {
			select {
			case <-p.done:
				t.Fatalf("interop: %s exited before listening on %s: %v\n%s", p.describe(), ready.addr, p.err, p.Output())
			case <-deadline:
				t.Fatalf("interop: %s not listening on %s after %v\n%s", p.describe(), ready.addr, StartTimeout, p.Output())
			case <-tick.C:
			}
		}
		return p
	}
	if ready.line != "" {
		select {
		case <-lines:
		case <-p.done:
			t.Fatalf("interop: %s exited before printing %q: %v\n%s", p.describe(), ready.line, p.err, p.Output())
		case <-deadline:
			t.Fatalf("interop: %s did not print %q in %v\n%s", p.describe(), ready.line, StartTimeout, p.Output())
		}
	}
	return p
}

// Exited waits at most timeout for the process to exit by itself and
// returns what exec.Cmd.Wait returned (nil for status 0); ok is false if
// it still runs.
func (p *Process) Exited(timeout time.Duration) (err error, ok bool) {
	select {
	case <-p.done:
		return p.err, true
	case <-time.After(timeout):
		return nil, false
	}
}

// Output returns what the peer has printed so far, stdout and stderr together.
func (p *Process) Output() string { return p.out.String() }

// Stop stops the peer and every process in its group, and waits for them.
// It is safe to call more than once; Start's cleanup calls it too.
func (p *Process) Stop() { stopGroup(p.Cmd.Process.Pid, p.done) }

// describe names the process in messages.
func (p *Process) describe() string {
	return strings.Join(p.Cmd.Args, " ")
}

// dialable reports whether addr accepts a TCP connection now.
func dialable(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago, for a
// peer that must be told its port. A listener the test keeps is race-free;
// use Listen when the code under test can take one.
func FreePort(t testing.TB) int {
	t.Helper()
	l := Listen(t)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// Listen returns a TCP listener on 127.0.0.1 with a free port, closed when
// the test ends.
func Listen(t testing.TB) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("interop: listen on 127.0.0.1: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// lockedBuffer collects a peer's output from the goroutines exec starts for
// stdout and stderr.
type lockedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	onWrite func(all []byte)
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.onWrite != nil {
		b.onWrite(b.buf.Bytes())
	}
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// String describes the process for %v.
func (p *Process) String() string { return fmt.Sprintf("pid %d: %s", p.Cmd.Process.Pid, p.describe()) }
