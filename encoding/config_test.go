package encoding

import (
	"net/http"
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
		{"negative MinSize", Config{MinSize: -1}, "Config.MinSize"},
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
	for _, cfg := range []Config{{}, {MinSize: EverySize}, {BufferSize: 1}, {MaxRequestSize: 1 << 62}} {
		if _, err := New(cfg); err != nil {
			t.Errorf("New(%+v): %v", cfg, err)
		}
	}
}

// TestMinSizeZeroIsTheDefaultAndEverySizeIsEvery: zero means
// DefaultMinSize, as for every size knob; EverySize compresses a body of
// one byte, and leaves an empty body alone, which no coding shortens.
func TestMinSizeZeroIsTheDefaultAndEverySizeIsEvery(t *testing.T) {
	for _, tc := range []struct {
		minSize int
		size    int
		coded   bool
	}{
		{0, DefaultMinSize - 1, false},
		{0, DefaultMinSize, true},
		{EverySize, 1, true},
		{EverySize, 0, false},
	} {
		var got Stats
		m := mustNew(t, Config{MinSize: tc.minSize, OnResponse: func(r *http.Request, s Stats) { got = s }})
		rec := serve(t, m, writeBody("text/plain", sampleText(tc.size)[:tc.size]), "GET", "Accept-Encoding: gzip")
		if coded := rec.Header().Get("Content-Encoding") == "gzip"; coded != tc.coded {
			t.Errorf("MinSize %d, %d-byte body: compressed %v, want %v (%s)", tc.minSize, tc.size, coded, tc.coded, describe(rec))
		}
		if !tc.coded && got.Skip != SkipTooSmall {
			t.Errorf("MinSize %d, %d-byte body: Stats.Skip %q, want %q", tc.minSize, tc.size, got.Skip, SkipTooSmall)
		}
	}
}
