package load

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
)

// Peer is an external program the load tests drive and the Debian package
// that provides it.
type Peer struct {
	Name    string // command name, such as "wrk"
	Package string // Debian packages that provide it, space-separated
}

// Peers returns the programs the load tests need, a new slice each call.
// The brotli modules come with nginx's entry so that one apt-get installs
// all of it.
func Peers() []Peer {
	return []Peer{
		{"nginx", "nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static"},
		{"wrk", "wrk"},
		{"ab", "apache2-utils"},
	}
}

// Install installs, through apt-get, the packages of the peers that are
// missing. It does nothing for a user other than root; it returns a line
// saying what it did or why it did not, for the report.
func Install(peers []Peer) string {
	var missing []string
	for _, p := range peers {
		if _, err := exec.LookPath(p.Name); err != nil {
			missing = append(missing, strings.Fields(p.Package)...)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	if os.Geteuid() != 0 {
		return "not root, so not installing " + strings.Join(missing, " ") + "; the tests that need them are skipped"
	}
	env := append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	update := exec.Command("apt-get", "update", "-qq")
	update.Env = env
	if out, err := update.CombinedOutput(); err != nil {
		return fmt.Sprintf("apt-get update failed (%v): %s", err, lastLine(out))
	}
	args := append([]string{"install", "-y", "-qq", "--no-install-recommends"}, missing...)
	install := exec.Command("apt-get", args...)
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		return fmt.Sprintf("apt-get install %s failed (%v): %s", strings.Join(missing, " "), err, lastLine(out))
	}
	// Debian's package starts a system nginx on port 80; ours run on their
	// own ports, so stop that one (harmless when none runs).
	exec.Command("nginx", "-s", "stop").Run()
	return "installed " + strings.Join(missing, " ") + " with apt-get"
}

// Version returns the first version-looking line a peer prints about
// itself, or "" when it is not installed.
func Version(name string) string {
	var args []string
	switch name {
	case "nginx":
		args = []string{"-v"}
	case "ab":
		args = []string{"-V"}
	case "wrk":
		args = []string{"-v"}
	default:
		args = []string{"--version"}
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	out, _ := exec.Command(path, args...).CombinedOutput()
	if m := versionRE.Find(out); m != nil {
		return string(m)
	}
	return lastLine(out)
}

var versionRE = regexp.MustCompile(`(nginx/|wrk |Version )[^\s,]*[0-9][^\s,]*`)

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}
