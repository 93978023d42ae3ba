package encoding

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

// equalityHandler is the most common conditional code in Go: it compares
// If-None-Match with its own tag by string equality, and records what it saw.
func equalityHandler(seen *string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		*seen = r.Header.Get("If-None-Match")
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(sampleText(8192))
	}
}

// taggedHandler sets an ETag (and a Cache-Control) and never looks at
// conditional requests.
func taggedHandler(etag string, size int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", "max-age=60")
		w.Header().Set("Content-Type", "text/css")
		w.Write(sampleText(size))
	}
}

// A handler comparing If-None-Match with its tag by == must see its own tag
// when the client revalidates the compressed representation, and its 304
// must carry the tag the client holds (RFC 9110 §15.4.5).
func TestEqualityHandlerSeesItsOwnTag(t *testing.T) {
	m := mustNew(t, Config{})
	for _, coding := range append([]string{""}, allCodings...) {
		tag := `"v1"`
		if coding != "" {
			tag = `"v1-` + coding + `"`
		}
		var seen string
		rec := serve(t, m, equalityHandler(&seen), "GET", "Accept-Encoding: "+coding, "If-None-Match: "+tag)
		if seen != `"v1"` {
			t.Errorf("%q: the handler saw If-None-Match %s, want its own tag \"v1\"", coding, seen)
		}
		if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != tag || rec.Header().Get("Vary") != "Accept-Encoding" || rec.Body.Len() != 0 {
			t.Errorf("%q: %s; want 304 with ETag %s and Vary", coding, describe(rec), tag)
		}
	}
}

// A tag of one coding never validates a response in another: the handler
// sees the client's tag as it is, and gets no 304 from the middleware.
func TestTagOfAnotherCodingNeverValidates(t *testing.T) {
	m := mustNew(t, Config{})
	var seen string
	rec := serve(t, m, equalityHandler(&seen), "GET", "Accept-Encoding: br", `If-None-Match: "v1-gzip"`)
	if seen != `"v1-gzip"` || rec.Code != http.StatusOK || rec.Header().Get("Etag") != `"v1-br"` {
		t.Errorf("the handler saw %s; %s; want a 200 in br", seen, describe(rec))
	}
	rec = serve(t, m, taggedHandler(`"v1"`, 8192), "GET", "Accept-Encoding: br", `If-None-Match: "v1-gzip"`)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "br" {
		t.Errorf("ETag-only handler: %s; want a 200 in br", describe(rec))
	}
}

// A handler that reads the list (http.ServeContent) sees every tag, the
// middleware's without their suffix, in one field line; several lines and
// weak tags included (RFC 9110 §13.1.2).
func TestListAwareHandlerWithSeveralTags(t *testing.T) {
	m := mustNew(t, Config{})
	var seen string
	h := func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("If-None-Match")
		serveContent(sampleText(8192))(w, r)
	}
	for _, lines := range [][]string{
		{`If-None-Match: "old", W/"v1-br", "x,y"`},
		{`If-None-Match: "old"`, `If-None-Match: "v1-br"`},
	} {
		rec := serve(t, m, h, "GET", append([]string{"Accept-Encoding: gzip;q=0.5, br"}, lines...)...)
		if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1-br"` {
			t.Errorf("%q: %s; want 304 with the br tag", lines, describe(rec))
		}
		if seen != `"old", W/"v1", "x,y"` && seen != `"old", "v1"` {
			t.Errorf("%q: the handler saw %q", lines, seen)
		}
	}
}

// A handler that sets an ETag and never evaluates conditionals gets its 304
// from the middleware, as from nginx's not-modified filter: with the 200's
// ETag, Vary and Cache-Control, without the body or its metadata, and
// OnResponse told.
func TestMiddlewareAnswersForETagOnlyHandler(t *testing.T) {
	var stats Stats
	m := mustNew(t, Config{OnResponse: func(r *http.Request, s Stats) { stats = s }})
	for _, size := range []int{8192, 300 << 10} { // whole, and past BufferSize
		rec := serve(t, m, taggedHandler(`"v1"`, size), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1-gzip"`)
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Fatalf("%d B: %s; want 304", size, describe(rec))
		}
		h := rec.Header()
		if h.Get("Etag") != `"v1-gzip"` || h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") != "max-age=60" {
			t.Errorf("%d B: 304 header %v; RFC 9110 §15.4.5 wants the 200's ETag, Vary and Cache-Control", size, h)
		}
		for _, name := range []string{"Content-Type", "Content-Length", "Content-Encoding"} {
			if h.Get(name) != "" {
				t.Errorf("%d B: 304 has %s", size, name)
			}
		}
		if !stats.Conditional || stats.Status != http.StatusNotModified || stats.BytesIn != int64(size) || stats.BytesOut != 0 {
			t.Errorf("%d B: Stats %+v", size, stats)
		}
	}
	// The identity representation's tag, on a request that gets the
	// compressed one, names another representation: RFC 9110 §13.1.2.
	rec := serve(t, m, taggedHandler(`"v1"`, 8192), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1"`)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" || stats.Conditional {
		t.Errorf("identity tag, gzip response: %s", describe(rec))
	}
	rec = serve(t, m, taggedHandler(`"v1"`, 8192), "GET", `If-None-Match: "v1"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1"` {
		t.Errorf("identity revalidation: %s", describe(rec))
	}
	rec = serve(t, m, taggedHandler(`"v1"`, 100), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1"` {
		t.Errorf("body under MinSize, sent as identity: %s", describe(rec))
	}
}

// RFC 9110 §13.1.3: without If-None-Match, If-Modified-Since is compared
// with the Last-Modified of a handler that sets only that.
func TestMiddlewareAnswersForLastModifiedOnlyHandler(t *testing.T) {
	modified := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Last-Modified", modified.Format(http.TimeFormat))
		w.Header().Set("Content-Type", "text/html")
		w.Write(sampleText(8192))
	}
	m := mustNew(t, Config{})
	for _, c := range []struct {
		header []string
		want   int
	}{
		{[]string{"If-Modified-Since: " + modified.Format(http.TimeFormat)}, http.StatusNotModified},
		{[]string{"If-Modified-Since: " + modified.Add(time.Hour).Format(http.TimeFormat)}, http.StatusNotModified},
		{[]string{"If-Modified-Since: " + modified.Add(-time.Second).Format(http.TimeFormat)}, http.StatusOK},
		{[]string{"If-Modified-Since: yesterday"}, http.StatusOK},
		// If-None-Match, when sent, decides alone.
		{[]string{"If-Modified-Since: " + modified.Format(http.TimeFormat), `If-None-Match: "other"`}, http.StatusOK},
	} {
		rec := serve(t, m, h, "GET", append(c.header, "Accept-Encoding: zstd")...)
		if rec.Code != c.want {
			t.Errorf("%q: %s; want %d", c.header, describe(rec), c.want)
		}
		if rec.Code == http.StatusNotModified && (rec.Header().Get("Last-Modified") == "" || rec.Header().Get("Vary") != "Accept-Encoding") {
			t.Errorf("%q: 304 without the Last-Modified that is its only validator, or without Vary: %v", c.header, rec.Header())
		}
	}
}

// RFC 9110 §13.2.1 and §15.4.5: the middleware's 304 stands only for a 200
// to GET or HEAD.
func TestNotModifiedOnlyFor200ToGETOrHEAD(t *testing.T) {
	m := mustNew(t, Config{})
	withStatus := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"v1"`)
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(code)
			w.Write(sampleText(4096))
		}
	}
	for _, c := range []struct {
		method string
		status int
		want   int
	}{
		{"GET", http.StatusOK, http.StatusNotModified},
		{"HEAD", http.StatusOK, http.StatusNotModified},
		{"POST", http.StatusOK, http.StatusOK},
		{"PUT", http.StatusOK, http.StatusOK},
		{"GET", http.StatusCreated, http.StatusCreated},
		{"GET", http.StatusNotFound, http.StatusNotFound},
	} {
		rec := serve(t, m, withStatus(c.status), c.method, "Accept-Encoding: gzip", `If-None-Match: "v1-gzip"`)
		if rec.Code != c.want {
			t.Errorf("%s answered %d: %s; want %d", c.method, c.status, describe(rec), c.want)
		}
	}
	rec := serve(t, m, taggedHandler(`"v1"`, 8192), "HEAD", "Accept-Encoding: br", `If-None-Match: "v1-br"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1-br"` {
		t.Errorf("HEAD: %s", describe(rec))
	}
	// A handler that sets its validator and writes nothing sends an empty
	// 200, which its 304 stands for just as well.
	empty := func(w http.ResponseWriter, r *http.Request) { w.Header().Set("ETag", `"v1"`) }
	rec = serve(t, m, empty, "GET", "Accept-Encoding: br", `If-None-Match: "v1"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1"` {
		t.Errorf("empty 200: %s", describe(rec))
	}
}

// RFC 9110 §13.1.2: "*" matches any current representation, whatever the
// handler does with it.
func TestIfNoneMatchStar(t *testing.T) {
	m := mustNew(t, Config{})
	var seen string
	for name, h := range map[string]http.HandlerFunc{
		"ETag only": taggedHandler(`"v1"`, 8192),
		"equality":  equalityHandler(&seen),
		"list":      serveContent(sampleText(8192)),
	} {
		rec := serve(t, m, h, "GET", "Accept-Encoding: gzip", "If-None-Match: *")
		if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1-gzip"` {
			t.Errorf("%s: %s; want 304", name, describe(rec))
		}
	}
}

// RFC 9110 §13.1.2: If-None-Match uses the weak comparison: a weak tag, and
// the tag a proxy weakened, still revalidate.
func TestIfNoneMatchWeakComparison(t *testing.T) {
	m := mustNew(t, Config{})
	for _, c := range []struct{ etag, sent, want string }{
		{`W/"v1"`, `W/"v1"`, `W/"v1"`},
		{`W/"v1"`, `"v1"`, `W/"v1"`},
		{`"v1"`, `W/"v1-gzip"`, `"v1-gzip"`},
	} {
		rec := serve(t, m, taggedHandler(c.etag, 8192), "GET", "Accept-Encoding: gzip", "If-None-Match: "+c.sent)
		if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != c.want {
			t.Errorf("ETag %s, If-None-Match %s: %s; want 304 with %s", c.etag, c.sent, describe(rec), c.want)
		}
	}
	var seen string
	rec := serve(t, m, equalityHandler(&seen), "GET", "Accept-Encoding: gzip", `If-None-Match: W/"v1-gzip"`)
	if seen != `W/"v1"` || rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1-gzip"` {
		t.Errorf("equality handler saw %s: %s; want 304", seen, describe(rec))
	}
	// ETagWeaken: the handler sees the weak tag as sent, and the middleware
	// finds it on the weakened 200.
	rec = serve(t, mustNew(t, Config{ETag: ETagWeaken}), equalityHandler(&seen), "GET", "Accept-Encoding: gzip", `If-None-Match: W/"v1"`)
	if seen != `W/"v1"` || rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `W/"v1"` {
		t.Errorf("ETagWeaken: equality handler saw %s: %s; want 304", seen, describe(rec))
	}
}

// RFC 9110 §13.1.1: If-Match uses the strong comparison with the tag of the
// bytes the response carries. On GET and HEAD the middleware evaluates it,
// so that the handler's == comparison, http.ServeContent and handlers that
// tag per coding all get it right; a 412 is empty and not cacheable.
func TestIfMatchOnGETIsExact(t *testing.T) {
	body := sampleText(8192)
	equality := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Cache-Control", "max-age=60")
		if im := r.Header.Get("If-Match"); im != "" && im != `"v1"` {
			w.WriteHeader(http.StatusPreconditionFailed)
			return
		}
		http.ServeContent(w, r, "app.js", time.Unix(1e9, 0), bytes.NewReader(body))
	}
	m := mustNew(t, Config{})
	for _, c := range []struct {
		header []string
		want   int
	}{
		{[]string{`If-Match: "v1-gzip"`}, http.StatusOK},
		{[]string{`If-Match: "v0-gzip", "v1-gzip"`}, http.StatusOK},
		{[]string{`If-Match: *`}, http.StatusOK},
		{[]string{`If-Match: "v2-gzip"`}, http.StatusPreconditionFailed},
		{[]string{`If-Match: W/"v1-gzip"`}, http.StatusPreconditionFailed},
		// The identity tag does not match the gzip representation...
		{[]string{`If-Match: "v1"`}, http.StatusPreconditionFailed},
		// ...but does match a range of the identity bytes, which a range
		// for the compressed tag must never get.
		{[]string{`If-Match: "v1"`, "Range: bytes=0-99"}, http.StatusPartialContent},
		{[]string{`If-Match: "v1-gzip"`, "Range: bytes=0-99"}, http.StatusPreconditionFailed},
		// If-Match overrides If-Unmodified-Since (§13.2.2).
		{[]string{`If-Match: "v1-gzip"`, "If-Unmodified-Since: Mon, 01 Jan 1990 00:00:00 GMT"}, http.StatusOK},
	} {
		for name, h := range map[string]http.HandlerFunc{"equality": equality, "ServeContent": serveContent(body)} {
			rec := serve(t, m, h, "GET", append(c.header, "Accept-Encoding: gzip")...)
			if rec.Code != c.want {
				t.Errorf("%s, %q: %s; want %d", name, c.header, describe(rec), c.want)
			}
			if rec.Code == http.StatusPreconditionFailed && (rec.Body.Len() != 0 || rec.Header().Get("Cache-Control") != "") {
				t.Errorf("%s, %q: 412 with a body or Cache-Control: %s", name, c.header, describe(rec))
			}
		}
	}
	// §13.2.1: a response other than 2xx ignores the condition.
	notFound := func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
	if rec := serve(t, m, notFound, "GET", "Accept-Encoding: gzip", `If-Match: "v1-gzip"`); rec.Code != http.StatusNotFound {
		t.Errorf("404 with If-Match: %s", describe(rec))
	}
}

// On a method other than GET and HEAD, the handler decides If-Match, seeing
// its own tag.
func TestIfMatchOnPUTSeesTheHandlersTag(t *testing.T) {
	var seen string
	h := func(w http.ResponseWriter, r *http.Request) { seen = r.Header.Get("If-Match") }
	serve(t, mustNew(t, Config{}), h, "PUT", "Accept-Encoding: zstd", `If-Match: "v1-zstd"`)
	if seen != `"v1"` {
		t.Errorf("the handler saw If-Match %s, want \"v1\"", seen)
	}
}

// RFC 9110 §13.1.5: If-Range with the identity tag gets a range of the
// identity bytes, never of compressed ones.
func TestIfRangeOfIdentityRepresentationGetsIdentityRange(t *testing.T) {
	body := sampleText(8192)
	rec := serve(t, mustNew(t, Config{}), serveContent(body), "GET", "Accept-Encoding: gzip", "Range: bytes=100-199", `If-Range: "v1"`)
	if rec.Code != http.StatusPartialContent || rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(rec.Body.Bytes(), body[100:200]) {
		t.Fatalf("%s; want 206 of the identity bytes", describe(rec))
	}
}

// A handler's own 304 after If-Modified-Since alone carries the tag a 200
// to the same request would (RFC 9110 §15.4.5); after If-None-Match, the
// one the client named.
func TestHandlersNotModifiedCarriesTheTagOfTheRepresentation(t *testing.T) {
	m := mustNew(t, Config{})
	h := serveContent(sampleText(8192))
	rec := serve(t, m, h, "GET", "Accept-Encoding: gzip", "If-Modified-Since: "+time.Unix(1e9, 0).UTC().Format(http.TimeFormat))
	if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1-gzip"` {
		t.Errorf("If-Modified-Since: %s; want 304 with the gzip tag", describe(rec))
	}
	rec = serve(t, m, h, "GET", "Accept-Encoding: gzip", `If-None-Match: "v1"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1"` {
		t.Errorf("If-None-Match of the identity tag: %s; want 304 with it", describe(rec))
	}
}

// DisableConditional leaves conditional requests to the handler: no 304 for
// a handler that ignores them, while one comparing by == still sees its tag.
func TestDisableConditional(t *testing.T) {
	m := mustNew(t, Config{DisableConditional: true})
	rec := serve(t, m, taggedHandler(`"v1"`, 8192), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1-gzip"`)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("ETag-only handler: %s; want the 200", describe(rec))
	}
	var seen string
	rec = serve(t, m, equalityHandler(&seen), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1-gzip"`)
	if seen != `"v1"` || rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"v1-gzip"` {
		t.Errorf("equality handler saw %s: %s; want its own 304", seen, describe(rec))
	}
	var im string
	h := func(w http.ResponseWriter, r *http.Request) { im = r.Header.Get("If-Match") }
	serve(t, m, h, "GET", "Accept-Encoding: gzip", `If-Match: "v1-gzip"`)
	if im != `"v1"` {
		t.Errorf("GET handler saw If-Match %s, want \"v1\"", im)
	}
}

// A handler that tags its variants per coding itself (as precompressed does)
// must still see its own tag in If-None-Match and If-Match.
func TestHandlerTaggingPerCodingStillRevalidates(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Header().Set("Content-Encoding", "br")
		w.Header().Set("ETag", `"sum-br"`)
		http.ServeContent(w, r, "", time.Unix(1e9, 0), strings.NewReader("pre-encoded bytes"))
	}
	m := mustNew(t, Config{})
	if rec := serve(t, m, h, "GET", "Accept-Encoding: br", `If-None-Match: "sum-br"`); rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"sum-br"` {
		t.Errorf("If-None-Match with the handler's own tag: %s; want 304 with that tag", describe(rec))
	}
	if rec := serve(t, m, h, "GET", "Accept-Encoding: br", `If-Match: "sum-br"`); rec.Code != http.StatusOK {
		t.Errorf("If-Match with the handler's own tag: %s; want 200", describe(rec))
	}
}

// RFC 9110 §15.4.5: a 304 carries the Vary the 200 had, and in ETagWeaken
// mode the weak tag the client holds.
func TestNotModifiedRepeatsVaryAndWeakTag(t *testing.T) {
	body := sampleText(8192)
	rec := serve(t, mustNew(t, Config{ETag: ETagKeep}), serveContent(body), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("ETagKeep 304: %s; want Vary", describe(rec))
	}
	m := mustNew(t, Config{ETag: ETagWeaken})
	first := serve(t, m, serveContent(body), "GET", "Accept-Encoding: gzip")
	again := serve(t, m, serveContent(body), "GET", "Accept-Encoding: gzip", "If-None-Match: "+first.Header().Get("Etag"))
	if first.Header().Get("Etag") != `W/"v1"` || again.Code != http.StatusNotModified || again.Header().Get("Etag") != `W/"v1"` {
		t.Errorf("ETagWeaken: 200 %q, then %s", first.Header().Get("Etag"), describe(again))
	}
}
