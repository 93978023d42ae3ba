package encoding

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestErrorResponsesDiscloseNothing collects every response the middleware
// writes itself (406, 413, 415) and what a client receives when the encoder
// fails with an error naming a file (the middleware aborts the connection
// with http.ErrAbortHandler, so the client sees a cut response): none may
// carry a file-system path, a Go error or the encoder's error text.
func TestErrorResponsesDiscloseNothing(t *testing.T) {
	big := sampleText(256 << 10)
	strict := mustNew(t, Config{NotAcceptable: true, DecodeRequests: true, MaxRequestSize: 1 << 10})
	failing := mustNew(t, Config{Codings: []Coding{{Codec: &failingCodec{failAfter: 1 << 30, failClose: true}}}})
	post := func(coding string, body []byte) *http.Request {
		r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
		r.Header.Set("Content-Encoding", coding)
		return r
	}
	cases := []struct {
		name   string
		m      *Middleware
		h      http.HandlerFunc
		r      *http.Request
		status int
	}{
		{"406", strict, writeBody("text/plain", big), serveRequest("GET", "Accept-Encoding: identity;q=0"), http.StatusNotAcceptable},
		{"413", strict, drain, post("gzip", encodeRequest(t, "gzip", big)), http.StatusRequestEntityTooLarge},
		{"415", strict, drain, post("compress", []byte("x")), http.StatusUnsupportedMediaType},
		{"failing encoder", failing, writeBody("text/plain", big), serveRequest("GET", "Accept-Encoding: gzip"), http.StatusOK},
	}
	for _, tc := range cases {
		rec := &response{ResponseRecorder: httptest.NewRecorder()}
		func() {
			defer func() {
				if p := recover(); p != nil && p != http.ErrAbortHandler {
					t.Errorf("%s: panic %v", tc.name, p)
				}
			}()
			tc.m.Handler(tc.h).ServeHTTP(rec.ResponseRecorder, tc.r)
		}()
		rec.sent = rec.Result().Header
		if rec.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, rec.Code, tc.status)
		}
		body := rec.Body.Bytes()
		if d := soak.Disclosure(body, errEncoder.Error(), "secret"); d != "" {
			t.Errorf("%s: the response body discloses %s: %q", tc.name, d, body[:min(len(body), 200)])
		}
		for name, values := range rec.Header() {
			for _, v := range values {
				if d := soak.Disclosure([]byte(v), errEncoder.Error(), "secret"); d != "" {
					t.Errorf("%s: header %s discloses %s: %q", tc.name, name, d, v)
				}
			}
		}
	}
}
