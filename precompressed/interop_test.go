package precompressed

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// rootSite writes siteFS to a temporary directory, next to a secret file
// outside it and a symbolic link that points at the secret, and serves the
// directory through FileServerRoot on 127.0.0.1.
func rootSite(t *testing.T) (srv *httptest.Server, dir string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "site")
	for name, f := range siteFS(t) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.ModTime, f.ModTime); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside the root"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	srv = httptest.NewServer(FileServerRoot(root, Config{}))
	t.Cleanup(srv.Close)
	return srv, dir
}

func TestFileServerRootRefusesSymlinkEscape(t *testing.T) {
	srv, _ := rootSite(t)
	resp, err := http.Get(srv.URL + "/escape.txt")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("symlink out of the root: status %d, want 404", resp.StatusCode)
	}
}

// curl, saving the raw body, gets each sidecar byte for byte, and decodes
// it back to the original with --compressed.
func TestCurlGetsEachSidecarByteForByte(t *testing.T) {
	curl := interop.Curl(t)
	srv, dir := rootSite(t)
	for _, sc := range DefaultSidecars() {
		want, err := os.ReadFile(filepath.Join(dir, "app.js"+sc.Ext))
		if err != nil {
			t.Fatal(err)
		}
		raw := filepath.Join(t.TempDir(), "raw")
		headers := strings.ToLower(curl.Run(t, "-sS", "-D", "-", "-o", raw, "-H", "Accept-Encoding: "+sc.Coding, srv.URL+"/app.js"))
		if !strings.Contains(headers, "content-encoding: "+sc.Coding+"\r\n") || !strings.Contains(headers, "vary: accept-encoding\r\n") {
			t.Fatalf("%s: curl saw headers\n%s", sc.Coding, headers)
		}
		if got, _ := os.ReadFile(raw); string(got) != string(want) {
			t.Errorf("%s: curl received %d bytes that differ from the %d of the sidecar", sc.Coding, len(got), len(want))
		}
		decoded := filepath.Join(t.TempDir(), "decoded")
		curl.Run(t, "-sS", "--compressed", "-o", decoded, "-H", "Accept-Encoding: "+sc.Coding, srv.URL+"/app.js")
		if got, _ := os.ReadFile(decoded); string(got) != string(jsBody) {
			t.Errorf("%s: curl --compressed decoded %d bytes that differ from the original", sc.Coding, len(got))
		}
		head := strings.ToLower(curl.Run(t, "-sS", "-I", "-H", "Accept-Encoding: "+sc.Coding, srv.URL+"/app.js"))
		if !strings.Contains(head, "content-length: "+strconv.Itoa(len(want))+"\r\n") {
			t.Errorf("%s: HEAD headers lack Content-Length %d:\n%s", sc.Coding, len(want), head)
		}
	}
}

func TestCurlRangeAndIfNoneMatch(t *testing.T) {
	curl := interop.Curl(t)
	srv, dir := rootSite(t)
	br, err := os.ReadFile(filepath.Join(dir, "app.js.br"))
	if err != nil {
		t.Fatal(err)
	}
	part := curl.Run(t, "-sS", "-r", "0-9", "-H", "Accept-Encoding: br", srv.URL+"/app.js")
	if part != string(br[:10]) {
		t.Errorf("Range 0-9: got %q, want the first 10 bytes of the br sidecar %q", part, br[:10])
	}
	headers := curl.Run(t, "-sS", "-I", "-H", "Accept-Encoding: br", srv.URL+"/app.js")
	var tag string
	for _, line := range strings.Split(headers, "\r\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "etag") {
			tag = strings.TrimSpace(v)
		}
	}
	if tag == "" {
		t.Fatalf("no ETag in\n%s", headers)
	}
	code := curl.Run(t, "-sS", "-o", os.DevNull, "-w", "%{http_code}", "-H", "Accept-Encoding: br", "-H", "If-None-Match: "+tag, srv.URL+"/app.js")
	if code != "304" {
		t.Errorf("If-None-Match %s: status %s, want 304", tag, code)
	}
}

func TestCurlTraversalAttemptsFail(t *testing.T) {
	curl := interop.Curl(t)
	srv, _ := rootSite(t)
	for _, p := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/docs/..%2f..%2fsecret.txt", "/docs/%2e%2e/%2e%2e/secret.txt", "/escape.txt"} {
		code := curl.Run(t, "-sS", "--path-as-is", "-o", os.DevNull, "-w", "%{http_code}", srv.URL+p)
		if code != "400" && code != "404" {
			t.Errorf("%s: status %s, want 400 or 404", p, code)
		}
	}
}
