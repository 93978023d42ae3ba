package interop

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
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

// groupAlive reports whether any process of the group led by pid remains.
func groupAlive(pid int) bool {
	return syscall.Kill(-pid, 0) == nil
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
	// Children that outlive the leader may need a moment to be reaped by
	// init; waiting here keeps "stopped" meaning "gone".
	for deadline := time.Now().Add(stopGrace); groupAlive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}
