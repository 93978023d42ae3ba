package wsdeflate

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// xconnectSetting is the GODEBUG setting that turns Extended CONNECT
// (RFC 8441) on in net/http's HTTP/2 server, which reads it once, when the
// process starts.
const xconnectSetting = "http2xconnect=1"

// extendedConnectOn is whether net/http in this process advertises
// SETTINGS_ENABLE_CONNECT_PROTOCOL, by the rule net/http applies.
var extendedConnectOn = strings.Contains(os.Getenv("GODEBUG"), xconnectSetting)

// withExtendedConnect reports whether the calling test may go on in this
// process: it may when net/http here has Extended CONNECT on (or off) as
// asked. Otherwise it runs the test again in a child process of the test
// binary with GODEBUG set accordingly, fails if the child fails, and
// reports false. Only top-level tests may call it.
func withExtendedConnect(t *testing.T, on bool) bool {
	t.Helper()
	if extendedConnectOn == on {
		return true
	}
	var keep []string
	for s := range strings.SplitSeq(os.Getenv("GODEBUG"), ",") {
		if s != "" && !strings.HasPrefix(s, "http2xconnect=") {
			keep = append(keep, s)
		}
	}
	if on {
		keep = append(keep, xconnectSetting)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "GODEBUG="+strings.Join(keep, ","))
	out, err := cmd.CombinedOutput()
	t.Logf("GODEBUG=%s %s:\n%s", strings.Join(keep, ","), t.Name(), out)
	switch {
	case err != nil:
		t.Fatalf("%s with GODEBUG=%s: %v", t.Name(), strings.Join(keep, ","), err)
	case strings.Contains(string(out), "--- SKIP: "+t.Name()):
		t.Skip("skipped in the child process (see its output above)")
	case !strings.Contains(string(out), "--- PASS: "+t.Name()):
		t.Fatalf("%s did not run in the child process", t.Name())
	}
	return false
}
