package precompressed

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// Side by side with nginx's gzip_static and brotli_static on the same tree,
// for the requests where nginx is right: the same status, coding and bytes,
// HEAD lengths, Range on the identity file, and 304 for each server's own
// ETag. Where nginx is wrong (it answers Range on a brotli_static sidecar
// with the whole 200, serves stale sidecars, and gives the variants ETags
// from mtime and size), the other tests hold this package to RFC 9110.
func TestSameAnswersAsNginxStatic(t *testing.T) {
	srv, dir := rootSite(t)
	ngx := interop.Nginx(t, "root "+dir+"; gzip_static on; brotli_static on; gzip_vary on;")
	client := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(base, method, path string, headers ...string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(body)
	}
	tests := []struct {
		method, path string
		headers      []string
	}{
		{"GET", "/app.js", nil},
		{"GET", "/app.js", []string{"Accept-Encoding", "gzip"}},
		{"GET", "/app.js", []string{"Accept-Encoding", "br"}},
		{"GET", "/app.js", []string{"Accept-Encoding", "gzip, br"}},
		{"HEAD", "/app.js", []string{"Accept-Encoding", "br"}},
		{"GET", "/app.js", []string{"Range", "bytes=0-9"}},
		{"GET", "/missing.js", []string{"Accept-Encoding", "br"}},
		{"GET", "/docs", nil},
		{"GET", "/docs/", nil},
		{"POST", "/app.js", nil},
	}
	for _, tt := range tests {
		name := tt.method + " " + tt.path + " " + strings.Join(tt.headers, " ")
		ours, ourBody := get(srv.URL, tt.method, tt.path, tt.headers...)
		theirs, theirBody := get(ngx.URL, tt.method, tt.path, tt.headers...)
		if ours.StatusCode != theirs.StatusCode {
			t.Errorf("%s: status %d, nginx %d", name, ours.StatusCode, theirs.StatusCode)
			continue
		}
		if ours.StatusCode >= 300 {
			continue // error and redirect bodies are each server's own
		}
		if a, b := ours.Header.Get("Content-Encoding"), theirs.Header.Get("Content-Encoding"); a != b {
			t.Errorf("%s: Content-Encoding %q, nginx %q", name, a, b)
		}
		if a, b := ours.Header.Get("Content-Length"), theirs.Header.Get("Content-Length"); a != b {
			t.Errorf("%s: Content-Length %q, nginx %q", name, a, b)
		}
		if ourBody != theirBody {
			t.Errorf("%s: %d body bytes differ from nginx's %d", name, len(ourBody), len(theirBody))
		}
		if ours.Header.Get("Content-Encoding") != "" && !strings.Contains(theirs.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: nginx sent no Vary, so this comparison is not of like with like", name)
		}
		// Each server's own validator makes a 304.
		for _, s := range []struct {
			base string
			tag  string
		}{{srv.URL, ours.Header.Get("ETag")}, {ngx.URL, theirs.Header.Get("ETag")}} {
			if tt.method != "GET" || s.tag == "" {
				continue
			}
			resp, _ := get(s.base, "GET", tt.path, append([]string{"If-None-Match", s.tag}, tt.headers...)...)
			if resp.StatusCode != http.StatusNotModified {
				t.Errorf("%s at %s: If-None-Match %s gave %d, want 304", name, s.base, s.tag, resp.StatusCode)
			}
		}
	}
}
