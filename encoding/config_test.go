package encoding

import (
	"strings"
	"testing"
)

// TestNewReportsMisconfigurationNamingTheField: a configuration the
// middleware cannot honour is refused when it is built, with an error that
// names the field, never quietly replaced by a default or found on the
// first request.
func TestNewReportsMisconfigurationNamingTheField(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   Config
		field string
	}{
		{"negative BufferSize", Config{BufferSize: -1}, "Config.BufferSize"},
		{"negative MaxRequestSize", Config{DecodeRequests: true, MaxRequestSize: -1}, "Config.MaxRequestSize"},
		{"negative Jitter", Config{Jitter: -1}, "Config.Jitter"},
		{"Jitter above the cap", Config{Jitter: maxPad + 1}, "Config.Jitter"},
		{"a Coding without Codec", Config{Codings: []Coding{{Codec: Gzip()}, {}}}, "Config.Codings[1]"},
		{"empty Codings", Config{Codings: []Coding{}}, "Config.Codings"},
		{"unknown ETagMode", Config{ETag: ETagKeep + 1}, "ETagMode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg)
			if err == nil {
				t.Fatalf("New accepted %+v", tc.cfg)
			}
			if !strings.HasPrefix(err.Error(), "encoding: ") || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("New's error %q does not start with the package name or name %s", err, tc.field)
			}
		})
	}
	for _, cfg := range []Config{{}, {MinSize: -1}, {BufferSize: 1}, {MaxRequestSize: 1 << 62}} {
		if _, err := New(cfg); err != nil {
			t.Errorf("New(%+v): %v", cfg, err)
		}
	}
}
