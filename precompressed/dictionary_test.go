package precompressed

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/internal/dcztest"
)

// buildScript returns build version of a generated script of about size
// bytes, a few percent of it changed between builds.
func buildScript(version, size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		n := i * 7919 % 1000
		if i%23 == 0 {
			n += version
		}
		fmt.Fprintf(&b, "export function handler%d(event) { return event.value * %d + %q; }\n", i, n, fmt.Sprint("label-", i%97))
	}
	fmt.Fprintf(&b, "export const version = %d;\n", version)
	return []byte(b.String())
}

// deltaSite writes builds 1 and 2 of app.js to a directory with the delta
// of 2 against 1, and returns it as a FileServer's file system with both
// builds' bytes.
func deltaSite(t *testing.T) (dir string, v1, v2 []byte) {
	t.Helper()
	dir = t.TempDir()
	v1, v2 = buildScript(1, 60<<10), buildScript(2, 60<<10)
	for name, b := range map[string][]byte{"app.1.js": v1, "app.2.js": v2} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The delta is newer than the original, as a build writes it.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "app.2.js"), old, old); err != nil {
		t.Fatal(err)
	}
	name, err := GenerateDelta(dir, DeltaConfig{Name: "app.2.js", Previous: "app.1.js"})
	if err != nil {
		t.Fatal(err)
	}
	if want := DeltaName("app.2.js", sha256.Sum256(v1)); name != want {
		t.Fatalf("GenerateDelta wrote %s, want %s", name, want)
	}
	return dir, v1, v2
}

func TestGenerateDeltaWritesDCZAgainstPreviousVersion(t *testing.T) {
	t.Parallel()
	dir, v1, v2 := deltaSite(t)
	delta, err := os.ReadFile(filepath.Join(dir, DeltaName("app.2.js", sha256.Sum256(v1))))
	if err != nil {
		t.Fatal(err)
	}
	got, err := dcztest.Decode(delta, v1, 1<<20)
	if err != nil || !bytes.Equal(got, v2) {
		t.Fatalf("delta decodes to %d bytes, %v; want build 2's %d", len(got), err, len(v2))
	}
	if zstdLen := len(compress(t, "zstd", v2)); len(delta)*4 > zstdLen {
		t.Errorf("delta is %d bytes, not under a quarter of zstd's %d", len(delta), zstdLen)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("directory holds %d entries, want the two builds and the delta (no temporary file left)", len(entries))
	}
	if _, err := GenerateDelta(dir, DeltaConfig{Name: "../app.2.js", Previous: "app.1.js"}); err == nil {
		t.Error("GenerateDelta read outside its directory")
	}
}

// dictRequest asks for target over TLS, as a same-origin script, from a
// client holding dict.
func dictRequest(h http.Handler, target string, dict []byte, extra ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", target, nil)
	r.TLS = &tls.ConnectionState{}
	r.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd, dcb, dcz")
	if dict != nil {
		sum := sha256.Sum256(dict)
		r.Header.Set("Available-Dictionary", ":"+base64.StdEncoding.EncodeToString(sum[:])+":")
	}
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set("Sec-Fetch-Mode", "no-cors")
	for i := 0; i+1 < len(extra); i += 2 {
		r.Header.Set(extra[i], extra[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestFileServerServesDeltaToClientWithDictionary(t *testing.T) {
	dir, v1, v2 := deltaSite(t)
	h := FileServer(os.DirFS(dir), Config{Dictionary: &DictionaryConfig{Match: VersionedMatch("/", nil)}})
	w := dictRequest(h, "/app.2.js", v1)
	res := w.Result()
	if ce := res.Header.Get("Content-Encoding"); ce != "dcz" {
		t.Fatalf("Content-Encoding %q, want dcz from the delta sidecar", ce)
	}
	if vary := strings.ToLower(strings.Join(res.Header.Values("Vary"), ",")); !strings.Contains(vary, "available-dictionary") || !strings.Contains(vary, "accept-encoding") {
		t.Errorf("Vary %q, want accept-encoding and available-dictionary (RFC 9842 §6.2)", vary)
	}
	if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("Content-Type %q, want the original's", ct)
	}
	if res.Header.Get("Content-Length") != fmt.Sprint(w.Body.Len()) {
		t.Errorf("Content-Length %q for a %d-byte body", res.Header.Get("Content-Length"), w.Body.Len())
	}
	got, err := dcztest.Decode(w.Body.Bytes(), v1, 1<<20)
	if err != nil || !bytes.Equal(got, v2) {
		t.Fatalf("body decodes to %d bytes, %v; want build 2", len(got), err)
	}
	// The new build is itself marked, for the build after it.
	if uad := res.Header.Get("Use-As-Dictionary"); uad != `match="/app.*.js"` {
		t.Errorf("Use-As-Dictionary %q, want match=\"/app.*.js\"", uad)
	}
	etag := res.Header.Get("ETag")
	if cond := dictRequest(h, "/app.2.js", v1, "If-None-Match", etag); cond.Code != http.StatusNotModified {
		t.Errorf("If-None-Match with the delta's ETag %s: status %d, want 304", etag, cond.Code)
	}
}

// wantFullBuild checks that w, a response for app.2.js in dir sent without
// its delta, is the whole of build 2 (v2): status 200, the body v2 itself
// or v2 compressed with the coding Content-Encoding names, and the
// original's Content-Type and Last-Modified, a Content-Length that is the
// body's, and Vary on Accept-Encoding.
func wantFullBuild(t *testing.T, what string, w *httptest.ResponseRecorder, dir string, v2 []byte) {
	t.Helper()
	res := w.Result()
	if w.Code != http.StatusOK {
		t.Errorf("%s: status %d, want 200 with build 2", what, w.Code)
		return
	}
	body := w.Body.Bytes()
	if ce := res.Header.Get("Content-Encoding"); ce != "" {
		body = decode(t, ce, body)
	}
	if !bytes.Equal(body, v2) {
		t.Errorf("%s: body (Content-Encoding %q) is %d bytes decoded, want build 2's %d", what, res.Header.Get("Content-Encoding"), len(body), len(v2))
	}
	if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("%s: Content-Type %q, want the original's", what, ct)
	}
	if cl := res.Header.Get("Content-Length"); cl != fmt.Sprint(w.Body.Len()) {
		t.Errorf("%s: Content-Length %q for a %d-byte body", what, cl, w.Body.Len())
	}
	fi, err := os.Stat(filepath.Join(dir, "app.2.js"))
	if err != nil {
		t.Fatal(err)
	}
	if lm, want := res.Header.Get("Last-Modified"), fi.ModTime().UTC().Format(http.TimeFormat); lm != want {
		t.Errorf("%s: Last-Modified %q, want build 2's %q", what, lm, want)
	}
	if vary := strings.ToLower(strings.Join(res.Header.Values("Vary"), ",")); !strings.Contains(vary, "accept-encoding") {
		t.Errorf("%s: Vary %q, want accept-encoding", what, vary)
	}
}

// Each case gets build 2 without the delta.
func TestFileServerDeltaOnlyWhenItApplies(t *testing.T) {
	dir, v1, v2 := deltaSite(t)
	h := FileServer(os.DirFS(dir), Config{Dictionary: &DictionaryConfig{}})
	for _, tt := range []struct {
		name  string
		dict  []byte
		extra []string
	}{
		{name: "no dictionary", dict: nil},
		{name: "another dictionary", dict: []byte("something else")},
		{name: "dcz not accepted", dict: v1, extra: []string{"Accept-Encoding", "gzip, br, zstd"}},
		{name: "star does not stand for dcz", dict: v1, extra: []string{"Accept-Encoding", "*"}},
		{name: "cross-site no-cors", dict: v1, extra: []string{"Sec-Fetch-Site", "cross-site"}},
	} {
		w := dictRequest(h, "/app.2.js", tt.dict, tt.extra...)
		if ce := w.Result().Header.Get("Content-Encoding"); ce == "dcz" {
			t.Errorf("%s: got the delta", tt.name)
			continue
		}
		wantFullBuild(t, tt.name, w, dir, v2)
	}
	r := httptest.NewRequest("GET", "http://example.com/app.2.js", nil)
	sum := sha256.Sum256(v1)
	r.Header.Set("Available-Dictionary", ":"+base64.StdEncoding.EncodeToString(sum[:])+":")
	r.Header.Set("Accept-Encoding", "dcz, zstd")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Result().Header.Get("Content-Encoding") == "dcz" {
		t.Error("plain http to a public host got the delta; RFC 9842 §8 limits dictionaries to secure contexts")
	} else {
		wantFullBuild(t, "plain http to a public host", w, dir, v2)
	}
}

func TestFileServerIgnoresStaleDelta(t *testing.T) {
	dir, v1, v2 := deltaSite(t)
	future := time.Now().Add(time.Hour) // the original is rebuilt after its delta
	if err := os.Chtimes(filepath.Join(dir, "app.2.js"), future, future); err != nil {
		t.Fatal(err)
	}
	h := FileServer(os.DirFS(dir), Config{Dictionary: &DictionaryConfig{}})
	w := dictRequest(h, "/app.2.js", v1)
	if ce := w.Result().Header.Get("Content-Encoding"); ce == "dcz" {
		t.Fatal("a delta older than its original was served")
	}
	wantFullBuild(t, "stale delta", w, dir, v2)
}

func TestFileServerMarksVersionedAssetsOnly(t *testing.T) {
	fsys := fstest.MapFS{"js/app.3f2a1b9c.js": file([]byte("x")), "logo.js": file([]byte("y"))}
	h := FileServer(fsys, Config{Dictionary: &DictionaryConfig{Match: VersionedMatch("/static", nil), MatchDest: []string{"script"}}})
	res := do(h, "GET", "/js/app.3f2a1b9c.js").Result()
	if got, want := res.Header.Get("Use-As-Dictionary"), `match="/static/js/app.*.js", match-dest=("script")`; got != want {
		t.Errorf("Use-As-Dictionary %q, want %q", got, want)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "max-age=") {
		t.Errorf("Cache-Control %q: a dictionary needs freshness to be used (RFC 9842 §2.2.1)", cc)
	}
	if got := do(h, "GET", "/logo.js").Result().Header.Get("Use-As-Dictionary"); got != "" {
		t.Errorf("an unversioned file was marked: %q", got)
	}
}

func TestVersionedMatch(t *testing.T) {
	m := VersionedMatch("/", nil)
	for name, want := range map[string]string{
		"jquery-3.7.1.min.js":  "/jquery-*.min.js",
		"js/app.3f2a1b9c.js":   "/js/app.*.js",
		"app@2.js":             "/app@*.js",
		"css/site.v12.css":     "/css/site.*.css",
		"app.js":               "",
		"index.html":           "",
		"app.abc.js":           "",
		"weird(1).3f2a1b9c.js": "",
	} {
		if got := m(name); got != want {
			t.Errorf("VersionedMatch(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestDeltaNamedDirectly(t *testing.T) {
	dir, v1, _ := deltaSite(t)
	name := DeltaName("app.2.js", sha256.Sum256(v1))
	delta, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	for _, hide := range []bool{false, true} {
		h := FileServer(os.DirFS(dir), Config{HideSidecars: hide, Dictionary: &DictionaryConfig{}})
		w := dictRequest(h, "/"+name, nil)
		res := w.Result()
		switch {
		case hide && w.Code != http.StatusNotFound:
			t.Errorf("HideSidecars: a request for the delta %s got %d, want 404", name, w.Code)
		case !hide && w.Code != http.StatusOK:
			t.Errorf("a request for the delta %s got %d, want 200", name, w.Code)
		case !hide:
			// dcz is a content coding, not a media type (RFC 9842 §5):
			// the bytes go as they are, opaque.
			if ct, ce := res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"); ct != "application/octet-stream" || ce != "" {
				t.Errorf("delta named directly: Content-Type %q, Content-Encoding %q; want application/octet-stream and none", ct, ce)
			}
			if !bytes.Equal(w.Body.Bytes(), delta) {
				t.Errorf("delta named directly: %d bytes sent, want the file's %d", w.Body.Len(), len(delta))
			}
		}
		// Hidden or not, the delta still serves its purpose.
		if ce := dictRequest(h, "/app.2.js", v1).Result().Header.Get("Content-Encoding"); ce != "dcz" {
			t.Errorf("HideSidecars %v: the client with build 1 got Content-Encoding %q, want dcz", hide, ce)
		}
	}
	// Names that only look like deltas are ordinary files.
	for _, name := range []string{"app.js.dcz", "app.js." + strings.Repeat("A", 64) + ".dcz", "." + strings.Repeat("a", 64) + ".dcz"} {
		if deltaOriginal(name) != "" {
			t.Errorf("%s taken for a delta sidecar", name)
		}
	}
}
