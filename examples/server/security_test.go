package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// markup is what an attacker puts in a path: the page used to write each
// recorded path into every visitor's page with innerHTML, where the image's
// error handler ran.
const markup = `<img src=x onerror="document.documentElement.dataset.injected=1">`

// get requests path from srv and returns the response and its body.
func get(t *testing.T, srv *httptest.Server, method, path string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, srv, req)
}

func do(t *testing.T, srv *httptest.Server, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// stats returns what the demo's /stats reports.
func stats(t *testing.T, srv *httptest.Server) statsReply {
	t.Helper()
	_, body := get(t, srv, "GET", "/stats")
	var s statsReply
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatalf("/stats: %v in %q", err, body)
	}
	return s
}

func responses(s statsReply) int64 {
	var n int64
	for _, c := range s.Codings {
		n += c.Responses
	}
	return n
}

func newDemo(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := newHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestDemoRecordsOnlyItsRoutes(t *testing.T) {
	srv := newDemo(t)
	junk := []string{
		"/" + url.PathEscape(markup),
		"/api/items/" + url.PathEscape(markup),
		"/static/" + url.PathEscape(markup),
		"/" + strings.Repeat("a", 8<<10),
	}
	for _, path := range junk {
		for range 50 {
			if resp, _ := get(t, srv, "GET", path); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("GET %.40s: status %d, want 404", path, resp.StatusCode)
			}
		}
	}
	if resp, _ := get(t, srv, "POST", "/api/items"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /api/items: status %d, want 405", resp.StatusCode)
	}
	// A route with markup in its query is listed by its route alone.
	get(t, srv, "GET", "/api/items?"+url.QueryEscape(markup))
	get(t, srv, "GET", "/api/items")

	s := stats(t, srv)
	if n := responses(s); n != 2 {
		t.Errorf("%d responses counted, want the 2 to /api/items: %+v", n, s.Codings)
	}
	if len(s.Recent) != 2 {
		t.Errorf("recent lists %d responses, want the 2 to /api/items: %+v", len(s.Recent), s.Recent)
	}
	for _, r := range s.Recent {
		if r.Route != "GET /api/items" {
			t.Errorf("recent lists %q, want only the demo's own route strings", r.Route)
		}
	}
}

func TestDemoChartLeavesOutItsOwnStatsPolls(t *testing.T) {
	srv := newDemo(t)
	// A fresh demo has warmed its encoders, and charts none of that.
	if s := stats(t, srv); responses(s) != 0 || len(s.Recent) != 0 {
		t.Fatalf("a fresh demo reports %+v, want nothing: the warm-up is charted", s)
	}
	for range 10 {
		stats(t, srv)
	}
	if s := stats(t, srv); responses(s) != 0 || len(s.Recent) != 0 {
		t.Errorf("after 10 polls of /stats it reports %+v, want nothing", s)
	}
}

func TestDemoPageForbidsInlineScript(t *testing.T) {
	srv := newDemo(t)
	req, err := http.NewRequest("GET", srv.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "<script>alert(1)</script>")
	resp, body := do(t, srv, req)
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "script-src") {
		t.Errorf("Content-Security-Policy %q: want scripts from the page's own origin only", csp)
	}
	if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options %q, want nosniff", got)
	}
	// The page shows the request's Accept-Encoding, escaped.
	if strings.Contains(string(body), "<script>alert") || !strings.Contains(string(body), "&lt;script&gt;alert(1)") {
		t.Errorf("the page shows Accept-Encoding unescaped:\n%s", body)
	}
}

func TestLimitAnswers503BeyondItsCount(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	l := newLimit(1)
	srv := httptest.NewServer(l.wrap("tests", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})))
	defer srv.Close()
	first := make(chan int)
	go func() {
		resp, err := srv.Client().Get(srv.URL)
		if err != nil {
			first <- 0
			return
		}
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	<-entered // the one place is taken
	if resp, _ := get(t, srv, "GET", "/"); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a request beyond the limit: status %d, Retry-After %q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	release <- struct{}{}
	if code := <-first; code != http.StatusOK {
		t.Fatalf("the request within the limit: status %d", code)
	}
	// Its place is free again once it has been served.
	go func() { <-entered; release <- struct{}{} }()
	if resp, _ := get(t, srv, "GET", "/"); resp.StatusCode != http.StatusOK {
		t.Errorf("after the first request ended: status %d, want 200", resp.StatusCode)
	}
}
