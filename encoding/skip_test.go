package encoding

import (
	"bytes"
	"net/http"
	"testing"
	"time"
)

// skipOf serves one request to h through a middleware built from cfg with
// OnResponse set, and returns the response and what OnResponse was told.
func skipOf(t *testing.T, cfg Config, h http.HandlerFunc, method string, header ...string) (*response, Stats) {
	t.Helper()
	calls := 0
	var got Stats
	cfg.OnResponse = func(r *http.Request, s Stats) { calls++; got = s }
	rec := serve(t, mustNew(t, cfg), h, method, header...)
	if calls != 1 {
		t.Fatalf("OnResponse called %d times for one response (%s)", calls, describe(rec))
	}
	return rec, got
}

// wantSkip checks that the response went out uncompressed and that Stats
// said why.
func wantSkip(t *testing.T, rec *response, s Stats, want Skip) {
	t.Helper()
	if s.Skip != want || s.Coding != "" && want != SkipEncoded || s.Origin != OriginHandler {
		t.Errorf("Stats.Skip %q, Coding %q; want %q, identity (%s)", s.Skip, s.Coding, want, describe(rec))
	}
	if want != SkipHead && want != SkipEncoded && rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("skipped for %q but sent compressed: %s", want, describe(rec))
	}
}

func serveText(n int) http.HandlerFunc {
	return writeBody("text/plain; charset=utf-8", sampleText(n))
}

// textWith is a handler that writes 4 KiB of text with the field name set
// to value.
func textWith(name, value string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set(name, value)
		w.Write(sampleText(4096))
	}
}

func TestSkipReasonNoneWhenCompressed(t *testing.T) {
	rec, s := skipOf(t, Config{}, serveText(4096), "GET", "Accept-Encoding: gzip")
	if s.Coding != "gzip" || s.Skip != SkipNone || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("compressed response: Stats %+v, %s", s, describe(rec))
	}
}

// Bodies under Config.MinSize are not worth a coding's framing; an empty
// body never is.
func TestSkipReasonTooSmallBelowMinSize(t *testing.T) {
	rec, s := skipOf(t, Config{}, serveText(DefaultMinSize-1), "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipTooSmall)
	// Content-Length alone decides, before any byte is written.
	sized := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "10")
		w.Write([]byte("0123456789"))
	}
	rec, s = skipOf(t, Config{}, sized, "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipTooSmall)
	rec, s = skipOf(t, Config{}, func(http.ResponseWriter, *http.Request) {}, "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipTooSmall)
}

// Config.Types decides by the handler's Content-Type, or by the one sniffed
// from the body when the handler set none.
func TestSkipReasonTypeNotCompressible(t *testing.T) {
	rec, s := skipOf(t, Config{}, writeBody("image/png", sampleText(4096)), "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipType)
	png := append([]byte("\x89PNG\r\n\x1a\n"), sampleText(4096)...)
	rec, s = skipOf(t, Config{}, writeBody("", png), "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipType)
}

// RFC 9110 §8.4: a body the handler encoded is not encoded again.
func TestSkipReasonEncodedRFC9110ContentEncoding(t *testing.T) {
	rec, s := skipOf(t, Config{}, textWith("Content-Encoding", "gzip"), "GET", "Accept-Encoding: br, gzip")
	wantSkip(t, rec, s, SkipEncoded)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("the handler's own coding changed: %s", describe(rec))
	}
}

// RFC 9111 §5.2.2.6: no-transform forbids changing the content.
func TestSkipReasonNoTransformRFC9111(t *testing.T) {
	rec, s := skipOf(t, Config{}, textWith("Cache-Control", "public, No-Transform"), "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipNoTransform)
}

// RFC 9110 §15.3.5, §15.4.5: 204 and 304 have no content; a 304 or 412 the
// middleware answers a conditional request with has none either.
func TestSkipReasonStatusRFC9110NoContent(t *testing.T) {
	for _, code := range []int{http.StatusNoContent, http.StatusNotModified} {
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Etag", `"v1"`)
			w.WriteHeader(code)
		}
		rec, s := skipOf(t, Config{}, h, "GET", "Accept-Encoding: gzip")
		wantSkip(t, rec, s, SkipStatus)
		if s.Status != code {
			t.Errorf("Stats.Status %d, want %d", s.Status, code)
		}
	}
	tagged := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Etag", `"v1"`)
		w.Write(sampleText(4096))
	}
	rec, s := skipOf(t, Config{}, tagged, "GET", "Accept-Encoding: gzip", `If-None-Match: "v1-gzip"`)
	wantSkip(t, rec, s, SkipStatus)
	if rec.Code != http.StatusNotModified || !s.Conditional {
		t.Errorf("conditional GET: Stats %+v, %s; want the middleware's 304", s, describe(rec))
	}
}

// RFC 9110 §9.3.2: a HEAD whose handler describes no body, as net/http
// allows, says nothing of its GET's: the GET's body may be larger.
func TestSkipReasonHEADRFC9110(t *testing.T) {
	bare := func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Content-Type", "text/plain") }
	rec, s := skipOf(t, Config{}, bare, "HEAD", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipHead)
}

// RFC 9110 §12.5.3: no Accept-Encoding, or one that excludes every coding
// offered, gets identity.
func TestSkipReasonNotAcceptedRFC9110AcceptEncoding(t *testing.T) {
	for _, header := range [][]string{nil, {"Accept-Encoding: identity"}, {"Accept-Encoding: gzip;q=0, br;q=0, zstd;q=0, deflate;q=0"}} {
		rec, s := skipOf(t, Config{}, serveText(4096), "GET", header...)
		wantSkip(t, rec, s, SkipNotAccepted)
		if rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%q: identity for this client only, but no Vary: %s", header, describe(rec))
		}
	}
}

// RFC 9110 §14.4: a 206 or a Content-Range is a range of the identity bytes.
func TestSkipReasonRangeRFC9110(t *testing.T) {
	serveContent := func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "a.txt", time.Unix(1e9, 0), bytes.NewReader(sampleText(8192)))
	}
	rec, s := skipOf(t, Config{}, serveContent, "GET", "Accept-Encoding: gzip", "Range: bytes=0-99")
	wantSkip(t, rec, s, SkipRange)
	if rec.Code != http.StatusPartialContent || s.Status != http.StatusPartialContent {
		t.Errorf("Range request: Stats %+v, %s; want a 206", s, describe(rec))
	}
	rec, s = skipOf(t, Config{}, textWith("Content-Range", "bytes 0-4095/9000"), "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipRange)
}

// RFC 9110 §7.8: a request to switch protocols is a tunnel, not a body; the
// handler that refuses it is heard of, untouched.
func TestSkipReasonUpgradeRFC9110(t *testing.T) {
	refuse := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusUpgradeRequired)
		w.Write(sampleText(4096))
	}
	rec, s := skipOf(t, Config{}, refuse, "GET", "Accept-Encoding: gzip", "Connection: Upgrade", "Upgrade: websocket")
	wantSkip(t, rec, s, SkipUpgrade)
	if s.Status != http.StatusUpgradeRequired || s.BytesOut != 4096 || rec.Header().Get("Vary") != "" {
		t.Errorf("refused upgrade: Stats %+v, %s; want the handler's 426 untouched", s, describe(rec))
	}
	// RFC 8441: a CONNECT carries WebSocket over HTTP/2.
	rec, s = skipOf(t, Config{}, serveText(4096), "CONNECT", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipUpgrade)
	// A 101 to a request the middleware did not take for a tunnel.
	switching := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusSwitchingProtocols) }
	rec, s = skipOf(t, Config{}, switching, "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipUpgrade)
	if s.Status != http.StatusSwitchingProtocols {
		t.Errorf("Stats.Status %d, want 101", s.Status)
	}
}

// Bypass is the handler's own opt-out (BREACH).
func TestSkipReasonBypassed(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		Bypass(w)
		w.Header().Set("Content-Type", "text/plain")
		w.Write(sampleText(4096))
	}
	rec, s := skipOf(t, Config{}, h, "GET", "Accept-Encoding: gzip")
	wantSkip(t, rec, s, SkipBypassed)
}

// Each reason has the name the documentation and the demo show.
func TestSkipStringNamesEveryReason(t *testing.T) {
	want := map[Skip]string{
		SkipNone: "", SkipTooSmall: "too small", SkipType: "type not compressible",
		SkipEncoded: "already encoded", SkipNoTransform: "no-transform", SkipStatus: "status",
		SkipHead: "HEAD", SkipNotAccepted: "not accepted", SkipRange: "range",
		SkipUpgrade: "upgrade", SkipBypassed: "bypassed",
	}
	for s, name := range want {
		if s.String() != name {
			t.Errorf("Skip(%d).String() = %q, want %q", s, s.String(), name)
		}
	}
	if got := Skip(200).String(); got != "Skip(200)" {
		t.Errorf("unknown Skip: %q", got)
	}
}
