package interop

import "testing"

func TestPeersRunWithEitherVariable(t *testing.T) {
	for _, tc := range []struct {
		peers, require string
		run            bool
	}{
		{"", "", false},
		{"0", "", false},
		{"1", "", true},
		{"yes", "", true},
		{"", "require", true},
		{"0", "require", true},
		{"", "skip", false},
	} {
		if got := peersOpen(tc.peers, tc.require); got != tc.run {
			t.Errorf("peersOpen(%s=%q, %s=%q) = %v, want %v", PeersEnv, tc.peers, RequireEnv, tc.require, got, tc.run)
		}
	}
}

// skipRecorder is a testing.TB whose SkipNow ends only the finder it was
// passed to, with a panic that skipped recovers.
type skipRecorder struct{ testing.TB }

type skipNow struct{}

func (r skipRecorder) Helper()  {}
func (r skipRecorder) SkipNow() { panic(skipNow{}) }

// skipped reports whether find called SkipNow before doing anything else
// with the test.
func skipped(t *testing.T, find func(testing.TB)) (skip bool) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(skipNow); !ok {
				panic(v)
			}
			skip = true
		}
	}()
	find(skipRecorder{TB: t})
	return false
}

func TestFindersSkipUntilPeersAskedFor(t *testing.T) {
	t.Setenv(RequireEnv, "")
	t.Setenv(PeersEnv, "")
	finders := map[string]func(testing.TB){
		"Curl":     func(tb testing.TB) { Curl(tb) },
		"AB":       func(tb testing.TB) { AB(tb) },
		"Wrk":      func(tb testing.TB) { Wrk(tb) },
		"Python":   func(tb testing.TB) { Python(tb, "json") },
		"NodeWS":   func(tb testing.TB) { NodeWS(tb) },
		"Chromium": func(tb testing.TB) { Chromium(tb) },
		"Nginx":    func(tb testing.TB) { Nginx(tb, "") },
	}
	for name, find := range finders {
		if !skipped(t, find) {
			t.Errorf("%s did not skip with %s and %s unset", name, PeersEnv, RequireEnv)
		}
	}
}

func BenchmarkPeersLetsBenchmarksThrough(b *testing.B) {
	b.Setenv(RequireEnv, "")
	b.Setenv(PeersEnv, "")
	Peers(b) // would skip a test
	for b.Loop() {
	}
}
