package interop

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// RunTimeout bounds Peer.Run, so a peer that hangs fails the test instead of
// stalling the whole suite until go test's own timeout.
const RunTimeout = 60 * time.Second

// Peer is an external program found on this machine, with the environment it
// needs (for Node, NODE_PATH).
type Peer struct {
	// Name is what the peer is called in messages, such as "curl".
	Name string
	// Path is the executable's absolute path.
	Path string
	// Env holds extra KEY=value pairs added to the test's environment.
	Env []string
}

// LookPath finds the executable name on PATH; when it is missing the test
// skips, or fails under SQUEEZE_INTEROP=require. debianPackage names the
// package that provides it, for the message. Unlike the finders it does not
// call Peers: a tool such as sh is not a peer suite.
func LookPath(t testing.TB, name, debianPackage string) *Peer {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name, "not found on PATH", installHint(debianPackage))
		return nil
	}
	return &Peer{Name: name, Path: path}
}

// Curl returns the curl command-line client.
func Curl(t testing.TB) *Peer { t.Helper(); Peers(t); return LookPath(t, "curl", "curl") }

// AB returns ApacheBench, which speaks HTTP/1.0 (keep-alive only with -k and
// a Content-Length).
func AB(t testing.TB) *Peer { t.Helper(); Peers(t); return LookPath(t, "ab", "apache2-utils") }

// Wrk returns the wrk HTTP load generator.
func Wrk(t testing.TB) *Peer { t.Helper(); Peers(t); return LookPath(t, "wrk", "wrk") }

// ZstdCLI returns the zstd command-line tool, the reference implementation
// of RFC 8878.
func ZstdCLI(t testing.TB) *Peer { t.Helper(); Peers(t); return LookPath(t, "zstd", "zstd") }

// Command returns a command that runs the peer with args and its environment.
// Pass it to Start for a long-running peer; for one that exits, Run is shorter.
func (p *Peer) Command(args ...string) *exec.Cmd {
	cmd := exec.Command(p.Path, args...)
	cmd.Env = append(os.Environ(), p.Env...)
	return cmd
}

// Run runs the peer with args to completion, at most RunTimeout, and returns
// its standard output. A non-zero exit or a timeout fails the test with the
// peer's standard error.
func (p *Peer) Run(t testing.TB, args ...string) string {
	t.Helper()
	out, err := p.run(t.Context(), args)
	if err != nil {
		t.Fatalf("%s %s: %v", p.Name, strings.Join(args, " "), err)
	}
	return out
}

// run is Run without the test, for callers that inspect the error.
func (p *Peer) run(ctx context.Context, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, RunTimeout)
	defer cancel()
	cmd := p.Command(args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := runInGroup(ctx, cmd); err != nil {
		return stdout.String(), &runError{err: err, stderr: stderr.String()}
	}
	return stdout.String(), nil
}

// runError is a failed peer run with what the peer said on standard error.
type runError struct {
	err    error
	stderr string
}

func (e *runError) Error() string {
	if s := strings.TrimSpace(e.stderr); s != "" {
		return e.err.Error() + "; stderr:\n" + s
	}
	return e.err.Error()
}

func (e *runError) Unwrap() error { return e.err }
