package precompressed

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestConditionalRequestsPerVariant(t *testing.T) {
	h := FileServer(siteFS(t), Config{})
	brTag := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("ETag")
	idTag := do(h, "GET", "/app.js").Header().Get("ETag")
	lastMod := t0.Format(http.TimeFormat)
	tests := []struct {
		name     string
		headers  []string
		want     int
		encoding string
	}{
		{"If-None-Match of the variant", []string{"Accept-Encoding", "br", "If-None-Match", brTag}, 304, ""},
		{"If-None-Match weak form", []string{"Accept-Encoding", "br", "If-None-Match", "W/" + brTag}, 304, ""},
		{"If-None-Match of another variant", []string{"Accept-Encoding", "br", "If-None-Match", idTag}, 200, "br"},
		{"If-None-Match on identity", []string{"If-None-Match", idTag}, 304, ""},
		{"If-Match of the variant", []string{"Accept-Encoding", "br", "If-Match", brTag}, 200, "br"},
		{"If-Match of another variant", []string{"Accept-Encoding", "br", "If-Match", idTag}, 412, ""},
		{"If-Match weak never matches", []string{"Accept-Encoding", "br", "If-Match", "W/" + brTag}, 412, ""},
		{"If-Modified-Since", []string{"Accept-Encoding", "br", "If-Modified-Since", lastMod}, 304, ""},
	}
	for _, tt := range tests {
		w := do(h, "GET", "/app.js", tt.headers...)
		if w.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, w.Code, tt.want)
		}
		if got := w.Header().Get("Content-Encoding"); got != tt.encoding {
			t.Errorf("%s: Content-Encoding %q, want %q", tt.name, got, tt.encoding)
		}
		if w.Code == 304 {
			// RFC 9110 §15.4.5: a 304 carries the ETag and Vary a 200 would.
			if w.Header().Get("ETag") == "" || w.Header().Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s: 304 with ETag %q and Vary %q, want both", tt.name, w.Header().Get("ETag"), w.Header().Get("Vary"))
			}
		}
	}
}

func TestRangeIsOnEncodedBytes(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{})
	br := fsys["app.js.br"].Data
	tag := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("ETag")
	tests := []struct {
		name    string
		headers []string
		want    int
		body    []byte
	}{
		{"Range", []string{"Range", "bytes=0-9"}, 206, br[:10]},
		{"suffix Range", []string{"Range", "bytes=-5"}, 206, br[len(br)-5:]},
		{"If-Range with the variant's tag", []string{"Range", "bytes=0-9", "If-Range", tag}, 206, br[:10]},
		{"If-Range with another tag", []string{"Range", "bytes=0-9", "If-Range", `"other"`}, 200, br},
		{"unsatisfiable Range", []string{"Range", "bytes=100000-"}, 416, nil},
	}
	for _, tt := range tests {
		w := do(h, "GET", "/app.js", append([]string{"Accept-Encoding", "br"}, tt.headers...)...)
		if w.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, w.Code, tt.want)
			continue
		}
		if tt.body != nil && w.Body.String() != string(tt.body) {
			t.Errorf("%s: body %q, want %q", tt.name, w.Body.Bytes(), tt.body)
		}
		if tt.want == 206 && w.Header().Get("Content-Encoding") != "br" {
			t.Errorf("%s: 206 without Content-Encoding: br", tt.name)
		}
		if tt.want == 416 && w.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: 416 error body labelled Content-Encoding %q", tt.name, w.Header().Get("Content-Encoding"))
		}
	}
}

func TestHeadSendsContentLengthOfTheVariant(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{})
	for _, sc := range DefaultSidecars() {
		w := do(h, "HEAD", "/app.js", "Accept-Encoding", sc.Coding)
		if w.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d body bytes", sc.Coding, w.Body.Len())
		}
		if got, want := w.Header().Get("Content-Length"), strconv.Itoa(len(fsys["app.js"+sc.Ext].Data)); got != want {
			t.Errorf("HEAD %s: Content-Length %q, want %s", sc.Coding, got, want)
		}
		if w.Header().Get("Content-Encoding") != sc.Coding {
			t.Errorf("HEAD %s: Content-Encoding %q", sc.Coding, w.Header().Get("Content-Encoding"))
		}
	}
}

// Without the cache (or for content too large for it) the decoded body is
// streamed: its length is unknown when the headers go out.
func TestMissingOriginalServedFromSidecar(t *testing.T) {
	fsys := siteFS(t)
	delete(fsys, "app.js")
	h := FileServer(fsys, Config{FallbackCacheBytes: -1})
	w := do(h, "GET", "/app.js", "Accept-Encoding", "br")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "br" || w.Body.String() != string(fsys["app.js.br"].Data) {
		t.Fatalf("client accepting br: status %d, Content-Encoding %q; want 200 and the br sidecar", w.Code, w.Header().Get("Content-Encoding"))
	}
	w = do(h, "GET", "/app.js", "Range", "bytes=0-9")
	if w.Code != 200 || w.Body.String() != string(jsBody) {
		t.Fatalf("client accepting nothing: status %d, %d bytes; want 200 and the decoded original (no Range)", w.Code, w.Body.Len())
	}
	if w.Header().Get("Content-Encoding") != "" || w.Header().Get("Accept-Ranges") != "" {
		t.Errorf("decoded response has Content-Encoding %q, Accept-Ranges %q; want neither", w.Header().Get("Content-Encoding"), w.Header().Get("Accept-Ranges"))
	}
	if w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("decoded response: Content-Type %q, Vary %q", w.Header().Get("Content-Type"), w.Header().Get("Vary"))
	}
	tag := w.Header().Get("ETag")
	if !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("decoded response ETag %q, want a weak tag", tag)
	}
	if w := do(h, "GET", "/app.js", "If-None-Match", tag); w.Code != 304 || w.Header().Get("Vary") == "" {
		t.Errorf("If-None-Match of the decoded tag: status %d, Vary %q; want 304 with Vary", w.Code, w.Header().Get("Vary"))
	}
	if w := do(h, "GET", "/app.js", "If-Match", tag); w.Code != 412 {
		t.Errorf("If-Match of a weak tag: status %d, want 412 (strong comparison)", w.Code)
	}
	if w := do(h, "HEAD", "/app.js"); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD of decoded: status %d, %d body bytes", w.Code, w.Body.Len())
	}
}

// A sidecar that turns out corrupt halfway through decoding cannot change
// the status already sent; the response must be cut off, so that the
// client does not take a truncated body for the whole.
func TestCorruptSidecarDecodeAbortsResponse(t *testing.T) {
	gz := compress(t, "gzip", jsBody)
	corrupt := append([]byte{}, gz[:len(gz)-8]...) // drop the CRC and length
	srv := httptest.NewServer(FileServer(fstest.MapFS{"app.js.gz": file(corrupt)}, Config{FallbackCacheBytes: -1}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/app.js", nil)
	req.Header.Set("Accept-Encoding", "identity")
	// The abort may come before the headers leave the server's buffer
	// (the connection closes) or after (the chunked body is cut short).
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Errorf("a body decoded from a corrupt sidecar arrived as if whole; want the response cut off")
	}
}

// readFromRecorder is a ResponseRecorder whose ReadFrom, like the one of a
// net/http connection that uses sendfile, is counted.
type readFromRecorder struct {
	*httptest.ResponseRecorder
	readFroms int
}

func (r *readFromRecorder) ReadFrom(src io.Reader) (int64, error) {
	r.readFroms++
	return io.Copy(r.ResponseRecorder, src)
}

// A sidecar opened to be sent (not held in memory) reaches the connection
// through its ReadFrom, so that an *os.File body still goes out with
// sendfile despite the Content-Encoding wrapper.
func TestSidecarGoesThroughConnectionReadFrom(t *testing.T) {
	h := FileServer(siteFS(t), Config{FileCacheBytes: -1})
	w := &readFromRecorder{ResponseRecorder: httptest.NewRecorder()}
	r := httptest.NewRequest("GET", "/app.js", nil)
	r.Header.Set("Accept-Encoding", "br")
	h.ServeHTTP(w, r)
	if w.Header().Get("Content-Encoding") != "br" || w.readFroms == 0 {
		t.Errorf("Content-Encoding %q, %d ReadFrom calls; want br through ReadFrom", w.Header().Get("Content-Encoding"), w.readFroms)
	}
	if rw, ok := codingWriter(w, "br").(interface{ Unwrap() http.ResponseWriter }); !ok || rw.Unwrap() != w {
		t.Errorf("the Content-Encoding wrapper does not Unwrap to the connection's writer")
	}
}
