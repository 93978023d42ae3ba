package precompressed

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestErrorResponsesDiscloseNothing serves a real directory, whose path
// holds a planted secret, through FileServerRoot and provokes every error
// the server writes itself: 400 (traversal), 404 (missing, hidden dotfile,
// symbolic link out of the root), 405, 412, 406 and 500 (a corrupt sidecar
// decoded for a client without gzip). No body or header may carry the
// directory, a file-system path or a Go error.
func TestErrorResponsesDiscloseNothing(t *testing.T) {
	base := filepath.Join(t.TempDir(), "secret-site-dir")
	dir := filepath.Join(base, "public")
	outside := filepath.Join(base, "private.txt")
	for name, body := range map[string][]byte{
		"app.js":        jsBody,
		".env":          []byte("SECRET=1"),
		"broken.css.gz": compress(t, "gzip", jsBody)[:40],
	} {
		write(t, filepath.Join(dir, name), body)
	}
	write(t, outside, []byte("private"))
	if err := os.Symlink(outside, filepath.Join(dir, "escape.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	h := FileServerRoot(root, Config{Sidecars: []Sidecar{{Coding: "gzip", Ext: ".gz"}}})
	cases := []struct {
		name, method, path string
		header             []string
		status             int
	}{
		{"traversal", "GET", "/../private.txt", nil, http.StatusBadRequest},
		{"NUL", "GET", "/app.js\x00", nil, http.StatusBadRequest},
		{"missing", "GET", "/nope.js", nil, http.StatusNotFound},
		{"dotfile", "GET", "/.env", nil, http.StatusNotFound},
		{"dotfile sidecar", "GET", "/.env.gz", nil, http.StatusNotFound},
		{"symlink out of the root", "GET", "/escape.txt", nil, http.StatusNotFound},
		{"method", "POST", "/app.js", nil, http.StatusMethodNotAllowed},
		{"If-Match", "GET", "/app.js", []string{"If-Match", `"nope"`}, http.StatusPreconditionFailed},
		{"corrupt sidecar", "GET", "/broken.css", []string{"Accept-Encoding", "identity"}, http.StatusInternalServerError},
	}
	for _, tc := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.Method, r.URL.Path = tc.method, tc.path // as a server decodes %2e%2e and %00
		for i := 0; i+1 < len(tc.header); i += 2 {
			r.Header.Set(tc.header[i], tc.header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, w.Code, tc.status)
		}
		if d := soak.Disclosure(w.Body.Bytes(), "secret-site-dir", base, "SECRET", "private"); d != "" {
			t.Errorf("%s: the %d response discloses %s: %q", tc.name, w.Code, d, w.Body.String())
		}
		for name, values := range w.Header() {
			for _, v := range values {
				if d := soak.Disclosure([]byte(v), "secret-site-dir", base); d != "" {
					t.Errorf("%s: header %s discloses %s: %q", tc.name, name, d, v)
				}
			}
		}
	}
}

func write(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
