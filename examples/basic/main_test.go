package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestBasicCompressesWhatTheClientAccepts(t *testing.T) {
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", coding)
		rec := httptest.NewRecorder()
		newHandler().ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Encoding"); got != coding {
			t.Errorf("Accept-Encoding %s: Content-Encoding %q", coding, got)
		}
		if rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %s: Vary %q, want Accept-Encoding", coding, rec.Header().Get("Vary"))
		}
		if rec.Body.Len() >= 2500 {
			t.Errorf("Accept-Encoding %s: %d bytes sent for 2500 written", coding, rec.Body.Len())
		}
	}
	rec := httptest.NewRecorder()
	newHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Header().Get("Content-Encoding") != "" || rec.Code != http.StatusOK {
		t.Errorf("no Accept-Encoding: status %d, Content-Encoding %q; want identity", rec.Code, rec.Header().Get("Content-Encoding"))
	}
}
