package interop

import (
	"os"
	"testing"
)

// RequireEnv is the environment variable that, set to "require", turns a
// missing peer into a test failure instead of a skip.
const RequireEnv = "SQUEEZE_INTEROP"

// Required reports whether missing peers fail tests (SQUEEZE_INTEROP=require)
// rather than skip them.
func Required() bool { return mustFail(os.Getenv(RequireEnv)) }

// mustFail is the decision behind Required, kept pure so it can be tested
// without touching the process environment.
func mustFail(env string) bool { return env == "require" }

// Missing ends the test because peer is not available: it skips with the
// reason and the install hint, or fails when SQUEEZE_INTEROP=require.
// Finders call it; tests call it for a precondition of their own, such as a
// peer too old for the feature under test.
func Missing(t testing.TB, peer, reason, install string) {
	t.Helper()
	msg := "interop: " + peer + " not available: " + reason
	if install != "" {
		msg += " (install: " + install + ")"
	}
	if Required() {
		t.Fatalf("%s; %s=require makes this a failure", msg, RequireEnv)
		return
	}
	t.Skipf("%s", msg)
}

// installHint is the advice shown with a missing peer that Debian packages.
func installHint(debianPackages string) string {
	return "bash .ci/install-peers, or apt-get install " + debianPackages
}
