package wsdeflate

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestHandshakeErrorsDiscloseNothing provokes every HTTP error Accept
// writes: 405, 505, 426, 400, 403 and the 500 of a ResponseWriter that
// cannot be hijacked. The bodies name the request's fault (and may quote
// the request's own header, as text/plain with nosniff, which http.Error
// sets) but no path or Go error from the server.
func TestHandshakeErrorsDiscloseNothing(t *testing.T) {
	good := upgradeRequest
	cases := []struct {
		name   string
		edit   func(*http.Request)
		status int
	}{
		{"method", func(r *http.Request) { r.Method = http.MethodPost }, http.StatusMethodNotAllowed},
		{"HTTP/1.0", func(r *http.Request) { r.Proto, r.ProtoMinor = "HTTP/1.0", 0 }, http.StatusHTTPVersionNotSupported},
		{"no upgrade", func(r *http.Request) { r.Header.Del("Upgrade") }, http.StatusUpgradeRequired},
		{"version", func(r *http.Request) { r.Header.Set("Sec-WebSocket-Version", "8") }, http.StatusUpgradeRequired},
		{"key", func(r *http.Request) { r.Header.Set("Sec-WebSocket-Key", "c2hvcnQ=") }, http.StatusBadRequest},
		{"origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.test") }, http.StatusForbidden},
		{"bad origin", func(r *http.Request) { r.Header.Set("Origin", "::") }, http.StatusForbidden},
		{"no hijack", func(r *http.Request) {}, http.StatusInternalServerError},
	}
	for _, tc := range cases {
		r := good()
		tc.edit(r)
		w := httptest.NewRecorder() // cannot Hijack: the last case fails there
		if _, err := Accept(w, r, nil); err == nil {
			t.Fatalf("%s: Accept succeeded", tc.name)
		}
		if w.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, w.Code, tc.status)
		}
		if d := soak.Disclosure(w.Body.Bytes()); d != "" {
			t.Errorf("%s: the %d response discloses %s: %q", tc.name, w.Code, d, w.Body.String())
		}
		if ct := w.Header().Get("X-Content-Type-Options"); ct != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q, want nosniff: the body may quote the request", tc.name, ct)
		}
	}
}
