// Package load runs the load-test side of the benchmark report: it starts
// servers (ours and nginx) as separate processes on 127.0.0.1, drives them
// with wrk and ab, parses what those tools print, and reads a server's peak
// resident memory from /proc. Every process it starts is stopped by its PID.
package load

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a server started by Start, in its own process group.
type Process struct {
	// Cmd is the running command.
	Cmd  *exec.Cmd
	out  syncBuffer
	done chan struct{}
}

// Start runs cmd in a new process group and waits (at most 30 s) until
// 127.0.0.1:port accepts connections. On failure the process is stopped.
func Start(cmd *exec.Cmd, port int) (*Process, error) {
	p := &Process{Cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &p.out, &p.out
	// A group of its own, so Stop reaches any children and a terminal's
	// Ctrl-C does not race our own shutdown.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("load: start %s: %w", cmd.Path, err)
	}
	go func() { cmd.Wait(); close(p.done) }()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return p, nil
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("load: %s exited before listening on %s:\n%s", cmd.Path, addr, p.Output())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("load: %s not listening on %s after 30s:\n%s", cmd.Path, addr, p.Output())
		}
	}
}

// PID is the process's id.
func (p *Process) PID() int { return p.Cmd.Process.Pid }

// Output is what the process has printed so far.
func (p *Process) Output() string { return p.out.String() }

// Stop sends SIGTERM to the process group, then SIGKILL after 5 s, and
// waits for the process to exit.
func (p *Process) Stop() {
	pgid := p.Cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
}

// PeakRSS returns the process's peak resident set size (VmHWM) in bytes.
func PeakRSS(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("load: peak RSS: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("load: peak RSS: %q: %w", line, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("load: peak RSS: no VmHWM in /proc/%d/status", pid)
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("load: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer safe for the writes of a process's two
// output streams and concurrent reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
