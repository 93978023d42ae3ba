package interop

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BrowserTimeout bounds one headless Chromium run, and WaitDOM's polling.
const BrowserTimeout = 60 * time.Second

// chromiumNames are the executables tried, in order.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome"}

// Browser is a headless Chromium found by Chromium.
type Browser struct {
	// Path is the browser executable.
	Path string
	// VirtualTime is the --virtual-time-budget in milliseconds given to each
	// run: how long the page's timers and loads may run before the DOM is
	// dumped or the screenshot taken. 0 means 5000.
	VirtualTime int
}

// Chromium returns a headless Chromium. Note that Chromium offers br and zstd
// in Accept-Encoding only over https or to localhost, so serve pages on
// 127.0.0.1 (httptest does).
func Chromium(t testing.TB) *Browser {
	t.Helper()
	Peers(t)
	for _, name := range chromiumNames {
		if path, err := exec.LookPath(name); err == nil {
			return &Browser{Path: path}
		}
	}
	Missing(t, "chromium", "none of "+strings.Join(chromiumNames, ", ")+" on PATH", installHint("chromium"))
	return nil
}

// DumpDOM loads url and returns the serialized DOM once the page has run for
// the virtual time budget (see VirtualTime). The test fails if the browser
// does not finish within BrowserTimeout.
func (b *Browser) DumpDOM(t testing.TB, url string) string {
	t.Helper()
	out, err := b.run(t.Context(), t.TempDir(), "--dump-dom", url)
	if err != nil {
		t.Fatalf("interop: chromium --dump-dom %s: %v", url, err)
	}
	return out
}

// WaitDOM loads url again and again until the DOM contains want, and returns
// that DOM: the page signals that it is done by writing want into the
// document (a title, an element), which also covers work that virtual time
// does not wait for, such as a WebSocket exchange. It fails the test with the
// last DOM after BrowserTimeout.
func (b *Browser) WaitDOM(t testing.TB, url, want string) string {
	t.Helper()
	dir := t.TempDir()
	return waitDOM(t, url, want, func(ctx context.Context) (string, error) {
		return b.run(ctx, dir, "--dump-dom", url)
	})
}

// waitDOM calls load until the DOM it returns contains want, for at most
// BrowserTimeout.
func waitDOM(t testing.TB, url, want string, load func(context.Context) (string, error)) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), BrowserTimeout)
	defer cancel()
	var last string
	for {
		out, err := load(ctx)
		if err == nil && strings.Contains(out, want) {
			return out
		}
		if err == nil {
			last = out
		}
		if ctx.Err() != nil {
			t.Fatalf("interop: chromium: %s never showed %q within %v (last error: %v); last DOM:\n%s", url, want, BrowserTimeout, err, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Screenshot loads url in a window of width×height and returns the path of a
// PNG of it, inside t.TempDir(), for the test (or a person) to look at.
func (b *Browser) Screenshot(t testing.TB, url string, width, height int) string {
	t.Helper()
	dir := t.TempDir()
	png := filepath.Join(dir, "screenshot.png")
	if _, err := b.run(t.Context(), dir, "--screenshot="+png,
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height), "--hide-scrollbars", url); err != nil {
		t.Fatalf("interop: chromium --screenshot %s: %v", url, err)
	}
	if !isFile(png) {
		t.Fatalf("interop: chromium wrote no screenshot for %s", url)
	}
	return png
}

// run runs Chromium once, headless with a fresh profile in dir, with the
// flags that keep it off the network and working as root, and returns its
// standard output. Its whole process group is killed when it ends or times out.
func (b *Browser) run(ctx context.Context, dir string, args ...string) (string, error) {
	profile, err := os.MkdirTemp(dir, "profile")
	if err != nil {
		return "", err
	}
	return b.runProfile(ctx, profile, args...)
}

// runProfile is run with the profile directory given, which may hold what
// an earlier run kept (cache, compression dictionaries).
func (b *Browser) runProfile(ctx context.Context, profile string, args ...string) (string, error) {
	budget := b.VirtualTime
	if budget == 0 {
		budget = 5000
	}
	flags := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile,
		"--virtual-time-budget=" + strconv.Itoa(budget),
	}, args...)
	ctx, cancel := context.WithTimeout(ctx, BrowserTimeout)
	defer cancel()
	p := &Peer{Name: "chromium", Path: b.Path}
	return p.run(ctx, flags)
}
