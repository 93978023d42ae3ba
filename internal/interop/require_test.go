package interop

import (
	"fmt"
	"strings"
	"testing"
)

func TestMustFailOnlyWhenRequired(t *testing.T) {
	for _, tc := range []struct {
		env  string
		fail bool
	}{
		{"", false},
		{"require", true},
		{"1", false},
		{"skip", false},
	} {
		if got := mustFail(tc.env); got != tc.fail {
			t.Errorf("mustFail(%q) = %v, want %v", tc.env, got, tc.fail)
		}
	}
}

// recorder is a testing.TB that records how Missing ended the test instead
// of ending it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = fmt.Sprintf(format, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestMissingPeerSkipsUnlessRequired(t *testing.T) {
	for _, env := range []string{"", "require"} {
		t.Run("env="+env, func(t *testing.T) {
			t.Setenv(RequireEnv, env)
			r := &recorder{TB: t}
			if p := LookPath(r, "squeeze-no-such-peer", "squeeze-peer-pkg"); p != nil {
				t.Fatalf("LookPath found a peer that does not exist: %+v", p)
			}
			got, other := r.skipped, r.failed
			if env == "require" {
				got, other = r.failed, r.skipped
			}
			if got == "" || other != "" {
				t.Fatalf("with %s=%q: skipped %q, failed %q; want exactly one of them", RequireEnv, env, r.skipped, r.failed)
			}
			for _, want := range []string{"squeeze-no-such-peer", "apt-get install squeeze-peer-pkg"} {
				if !strings.Contains(got, want) {
					t.Errorf("message %q does not name %q", got, want)
				}
			}
		})
	}
}
