package precompressed

import (
	"bytes"
	"io/fs"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzPath feeds arbitrary decoded URL paths to the handler: it must never
// panic, answer only with the statuses a file server has, and never reveal
// the hidden dotfile or any of its sidecars.
func FuzzPath(f *testing.F) {
	for _, seed := range []string{"/", "/app.js", "/docs", "/docs/", "/../.env", "/docs/../.env", "//.env.gz", "/./app.js", "/app.js/", "/index.html", "/a\\b", "/\x00", "", "docs/index.html"} {
		f.Add(seed)
	}
	fsys := siteFS(f)
	h := FileServer(fsys, Config{})
	var secrets [][]byte
	for name, file := range fsys {
		if strings.HasPrefix(name, ".env") {
			secrets = append(secrets, file.Data)
		}
	}
	f.Fuzz(func(t *testing.T, p string) {
		if name, ok := fileName("/" + strings.TrimPrefix(p, "/")); ok && !fs.ValidPath(name) {
			t.Fatalf("fileName(%q) = %q, not a valid fs.FS name", p, name)
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.Path = p
		r.Header.Set("Accept-Encoding", "gzip, br, zstd")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case 200, 301, 400, 404:
		default:
			t.Fatalf("path %q: status %d", p, w.Code)
		}
		for _, s := range secrets {
			if w.Code == 200 && bytes.Equal(w.Body.Bytes(), s) {
				t.Fatalf("path %q revealed a hidden file", p)
			}
		}
	})
}
