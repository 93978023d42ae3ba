package interop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNginxServesFileFromTempRoot(t *testing.T) {
	root := t.TempDir()
	body := strings.Repeat("squeeze nginx interop ", 200)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := Nginx(t, "root "+root+";")
	curl := Curl(t)
	if got := curl.Run(t, "-sS", "-f", srv.URL+"/a.txt"); got != body {
		t.Fatalf("GET /a.txt returned %d bytes, want the %d-byte file", len(got), len(body))
	}
}

func TestNginxBrotliModulesLoad(t *testing.T) {
	root := t.TempDir()
	body := strings.Repeat("squeeze brotli ", 500)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := Nginx(t, "root "+root+"; brotli on; brotli_types text/plain; brotli_min_length 1;")
	headers := Curl(t).Run(t, "-sS", "-f", "-o", "/dev/null", "-D", "-", "-H", "Accept-Encoding: br", srv.URL+"/a.txt")
	if !strings.Contains(strings.ToLower(headers), "content-encoding: br") {
		t.Fatalf("nginx with brotli on did not answer with br:\n%s", headers)
	}
}
