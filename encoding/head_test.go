package encoding

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// exchange is one response as a client saw it, with what OnResponse said.
type exchange struct {
	header http.Header
	body   int
	stats  Stats
}

// exchangeOver sends method to srv with Accept-Encoding ae and returns what
// came back, over a real connection: net/http drops a HEAD's body, as a
// recorder does not. stats receives OnResponse's Stats.
func exchangeOver(t *testing.T, srv *httptest.Server, stats <-chan Stats, method, ae string) exchange {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL, nil)
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	resp.Body.Close()
	client.CloseIdleConnections()
	select {
	case s := <-stats:
		return exchange{header: resp.Header, body: b.Len(), stats: s}
	case <-time.After(10 * time.Second):
		t.Fatal("OnResponse was not called")
	}
	return exchange{}
}

// TestHEADHeaderAndStatsMatchGET_RFC9110_9_3_2: a HEAD gets the header its
// GET gets (Content-Encoding, Vary, ETag and, when the handler wrote the
// body whole into the buffer, the Content-Length of the compressed body),
// and Stats say of it what they say of the GET (coding, origin, reason to
// skip), with BytesOut 0: no body is sent, whatever the handler wrote.
func TestHEADHeaderAndStatsMatchGET_RFC9110_9_3_2(t *testing.T) {
	cases := map[string]http.HandlerFunc{
		"text written":       serveText(4793),
		"text too small":     serveText(100),
		"streamed text":      serveText(DefaultBufferSize + 4096),
		"handler's own gzip": textWith("Content-Encoding", "gzip"),
		"tagged JSON": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("ETag", `"v1"`)
			w.Write(sampleText(3000))
		},
	}
	for name, h := range cases {
		for _, ae := range []string{"", "gzip", "br", "zstd", "identity"} {
			stats := make(chan Stats, 1)
			m := mustNew(t, Config{OnResponse: func(r *http.Request, s Stats) { stats <- s }})
			srv := httptest.NewServer(m.Handler(h))
			get := exchangeOver(t, srv, stats, "GET", ae)
			head := exchangeOver(t, srv, stats, "HEAD", ae)
			srv.Close()
			for _, field := range []string{"Content-Encoding", "Content-Length", "Vary", "ETag", "Content-Type"} {
				if g, h := get.header.Values(field), head.header.Values(field); len(g) != len(h) || len(g) > 0 && g[0] != h[0] {
					t.Errorf("%s, Accept-Encoding %q: %s of HEAD %q, of GET %q", name, ae, field, h, g)
				}
			}
			want := get.stats
			want.BytesOut, want.Duration = 0, head.stats.Duration
			if head.stats != want || head.body != 0 {
				t.Errorf("%s, Accept-Encoding %q: HEAD's Stats %+v (%d body bytes); want the GET's with BytesOut 0: %+v", name, ae, head.stats, head.body, get.stats)
			}
			if get.stats.BytesOut != int64(get.body) {
				t.Errorf("%s, Accept-Encoding %q: GET's BytesOut %d, %d bytes received", name, ae, get.stats.BytesOut, get.body)
			}
		}
	}
}

// TestHEADOfServeContentHasNoCompressedLength_RFC9110_9_3_2: a HEAD that
// http.ServeContent answers writes no body, only its length: the coding
// is announced as for the GET, but the compressed length is not known
// without the body, so no Content-Length goes out (RFC 9110 §9.3.2 lets
// a HEAD omit header fields whose value is only known while generating
// the content).
func TestHEADOfServeContentHasNoCompressedLength_RFC9110_9_3_2(t *testing.T) {
	serveContent := func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "a.txt", time.Unix(1e9, 0), bytes.NewReader(sampleText(8192)))
	}
	stats := make(chan Stats, 1)
	m := mustNew(t, Config{OnResponse: func(r *http.Request, s Stats) { stats <- s }})
	srv := httptest.NewServer(m.Handler(http.HandlerFunc(serveContent)))
	defer srv.Close()
	head := exchangeOver(t, srv, stats, "HEAD", "gzip")
	if head.header.Get("Content-Encoding") != "gzip" || head.header.Get("Content-Length") != "" || head.header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("HEAD of ServeContent: header %v; want Content-Encoding gzip, Vary, no Content-Length", head.header)
	}
	if s := head.stats; s.Coding != "gzip" || s.Origin != OriginEncoder || s.Skip != SkipNone || s.BytesOut != 0 {
		t.Errorf("HEAD of ServeContent: Stats %+v; want gzip from the encoder, nothing sent", s)
	}
}
