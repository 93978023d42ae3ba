package interop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// stopGrace is how long a peer has between SIGTERM and SIGKILL.
const stopGrace = 3 * time.Second

// inGroup makes cmd lead a process group of its own, so that signalling the
// group reaches every child it spawns (Chromium's renderers, nginx workers).
func inGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	// A grandchild that inherited stdout would otherwise keep Wait
	// copying forever after the leader exits.
	cmd.WaitDelay = stopGrace
}

// killGroup sends sig to the process group led by pid. A group that is
// already gone is not an error.
func killGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// groupAlive reports whether any process of the group led by pid is still
// running. Exited children wait as zombies until init reaps them, which can
// take seconds, and a zombie holds no port or file, so where /proc shows
// process states zombies do not count.
func groupAlive(pid int) bool {
	if syscall.Kill(-pid, 0) != nil {
		return false
	}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return true
	}
	for _, path := range stats {
		if state, pgrp, ok := procState(path); ok && pgrp == pid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// procState reads a process's state and process group from /proc/PID/stat,
// whose second field, the command name in parentheses, may hold spaces.
func procState(path string) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	// After the name: state ppid pgrp ...
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0][0], pgrp, err == nil
}

// runInGroup runs cmd to completion in its own process group; when ctx ends
// first the whole group is killed. Stray children are killed either way.
func runInGroup(ctx context.Context, cmd *exec.Cmd) error {
	inGroup(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		killGroup(pid, syscall.SIGKILL)
		return err
	case <-ctx.Done():
		killGroup(pid, syscall.SIGKILL)
		<-done
		return fmt.Errorf("killed: %w", ctx.Err())
	}
}

// stopGroup ends the group led by cmd's process: SIGTERM, then SIGKILL after
// stopGrace, and waits for the leader through done.
func stopGroup(pid int, done <-chan struct{}) {
	killGroup(pid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(stopGrace):
	}
	killGroup(pid, syscall.SIGKILL)
	<-done
	// Children that outlive the leader die a moment after the signal;
	// waiting here keeps "stopped" meaning "gone".
	for deadline := time.Now().Add(stopGrace); groupAlive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}
