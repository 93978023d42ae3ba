package dictionary

import (
	"bytes"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/dcztest"
	"github.com/squeezehttp/squeeze/negotiate"
)

// dictionaryServer serves build 2 of a script through a middleware whose
// store holds build 1, with the response headers extra sets.
func dictionaryServer(t *testing.T, size int, extra http.Header) (http.Handler, *Dictionary, []byte) {
	t.Helper()
	v1, v2 := versionedScript(1, size), versionedScript(2, size)
	store := NewStore(0)
	d, err := store.Add(v1)
	if err != nil {
		t.Fatal(err)
	}
	mw := newMiddleware(t, Config{Store: store})
	return mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "max-age=600")
		w.Header().Set("ETag", `"build2"`)
		for k, v := range extra {
			w.Header()[k] = v
		}
		w.Write(v2)
	})), d, v2
}

// dictionaryRequest is a same-origin script request over TLS from a client
// that has d.
func dictionaryRequest(d *Dictionary, accept string) *http.Request {
	r := httptest.NewRequest("GET", "https://example.com/app/v2/app.js", nil)
	r.TLS = &tls.ConnectionState{}
	r.Header.Set("Accept-Encoding", accept)
	if d != nil {
		h := d.Hash()
		r.Header.Set("Available-Dictionary", ":"+stdBase64(h[:])+":")
	}
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set("Sec-Fetch-Mode", "no-cors")
	r.Header.Set("Sec-Fetch-Dest", "script")
	return r
}

func TestMiddlewareAnswersDCZForKnownDictionary(t *testing.T) {
	for _, size := range []int{20 << 10, 400 << 10} { // one shot, and streamed past BufferSize
		h, d, v2 := dictionaryServer(t, size, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, dictionaryRequest(d, "gzip, deflate, br, zstd, dcb, dcz"))
		res := rec.Result()
		if ce := res.Header.Get("Content-Encoding"); ce != "dcz" {
			t.Fatalf("%d B: Content-Encoding %q, want dcz", size, ce)
		}
		vary := strings.ToLower(strings.Join(res.Header.Values("Vary"), ","))
		if !strings.Contains(vary, "accept-encoding") || !strings.Contains(vary, "available-dictionary") {
			t.Errorf("%d B: Vary %q, want accept-encoding and available-dictionary (RFC 9842 §6.2)", size, vary)
		}
		if etag, want := res.Header.Get("ETag"), `"build2-dcz-`+d.tag()+`"`; etag != want {
			t.Errorf("%d B: ETag %s, want %s: a strong tag differs per dictionary", size, etag, want)
		}
		got, err := dcztest.Decode(rec.Body.Bytes(), d.Bytes(), 1<<20)
		if err != nil || !bytes.Equal(got, v2) {
			t.Fatalf("%d B: body decodes to %d bytes, %v; want the %d of build 2", size, len(got), err, len(v2))
		}
	}
}

// Each case leaves the dictionary out and the response in the coding it
// would have had without one.
func TestMiddlewareDictionaryOnlyWhenAllowed(t *testing.T) {
	for _, tt := range []struct {
		name    string
		accept  string
		extra   http.Header
		edit    func(r *http.Request)
		unknown bool
		want    string
	}{
		{name: "dcz not listed", accept: "gzip, br, zstd", want: "zstd"},
		{name: "star never stands for dcz (RFC 9842 §6.1)", accept: "*", want: "zstd"},
		{name: "dcz refused", accept: "zstd, dcz;q=0", want: "zstd"},
		{name: "dcz weighed below zstd", accept: "zstd, dcz;q=0.5", want: "zstd"},
		{name: "unknown dictionary", accept: "zstd, dcz", unknown: true, want: "zstd"},
		{name: "plain http to a public host (RFC 9842 §8)", accept: "zstd, dcz", want: "zstd", edit: func(r *http.Request) { r.TLS = nil }},
		{name: "cross-site no-cors (RFC 9842 §9.3.3)", accept: "zstd, dcz", want: "zstd", edit: func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }},
		{name: "cross-site cors without a grant", accept: "zstd, dcz", want: "zstd", edit: func(r *http.Request) {
			r.Header.Set("Sec-Fetch-Site", "cross-site")
			r.Header.Set("Sec-Fetch-Mode", "cors")
			r.Header.Set("Origin", "https://other.example")
		}},
		{name: "private response (RFC 9842 §9.2)", accept: "zstd, dcz", want: "zstd", extra: http.Header{"Cache-Control": {"private, max-age=60"}}},
		{name: "response sets a cookie", accept: "zstd, dcz", want: "zstd", extra: http.Header{"Set-Cookie": {"s=1"}}},
		{name: "no cache directives", accept: "gzip, dcz", want: "gzip", extra: http.Header{"Cache-Control": nil}},
	} {
		h, d, _ := dictionaryServer(t, 20<<10, tt.extra)
		offered := d
		if tt.unknown {
			offered = New([]byte("a dictionary the server never had"))
		}
		r := dictionaryRequest(offered, tt.accept)
		if tt.edit != nil {
			tt.edit(r)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if ce := rec.Result().Header.Get("Content-Encoding"); ce != tt.want {
			t.Errorf("%s: Content-Encoding %q, want %q", tt.name, ce, tt.want)
		}
		if strings.Contains(strings.ToLower(rec.Result().Header.Get("Vary")), "available-dictionary") {
			t.Errorf("%s: Vary names Available-Dictionary on a response that did not use it", tt.name)
		}
	}
}

func TestMiddlewareDictionaryForGrantedCORS(t *testing.T) {
	h, d, _ := dictionaryServer(t, 20<<10, http.Header{"Access-Control-Allow-Origin": {"https://app.example"}})
	r := dictionaryRequest(d, "zstd, dcz")
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	r.Header.Set("Sec-Fetch-Mode", "cors")
	r.Header.Set("Origin", "https://app.example")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if ce := rec.Result().Header.Get("Content-Encoding"); ce != "dcz" {
		t.Fatalf("a CORS response readable by its origin went out as %q, want dcz", ce)
	}
}

// negotiate's rule that this relies on, checked where it is relied on.
func TestNegotiateNeverSelectsDictionaryCodingsThroughStar(t *testing.T) {
	for _, accept := range []string{"*", "*;q=1, gzip;q=0.1", "identity;q=0, *"} {
		a := negotiate.Parse([]string{accept})
		if q := a.Quality("dcz"); q != 0 {
			t.Errorf("Accept-Encoding %q gives dcz weight %d, want 0", accept, q)
		}
		if c, _ := a.Select("dcz", "dcb"); c != "" {
			t.Errorf("Accept-Encoding %q selected %q", accept, c)
		}
	}
}

func TestDictionaryReadablePerRFC9842Section9_3_3(t *testing.T) {
	for _, tt := range []struct {
		site, mode, origin, allow string
		want                      bool
	}{
		{"", "", "", "", true},
		{"same-origin", "no-cors", "", "", true},
		{"cross-site", "", "", "", true},
		{"cross-site", "navigate", "", "", true},
		{"same-site", "same-origin", "", "", true},
		{"cross-site", "no-cors", "", "", false},
		{"cross-site", "cors", "https://a.example", "", false},
		{"cross-site", "cors", "", "*", false},
		{"cross-site", "cors", "https://a.example", "*", true},
		{"cross-site", "cors", "https://a.example", "https://a.example", true},
		{"cross-site", "cors", "https://a.example", "https://b.example", false},
		{"same-site", "websocket", "", "", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		for k, v := range map[string]string{"Sec-Fetch-Site": tt.site, "Sec-Fetch-Mode": tt.mode, "Origin": tt.origin} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		resp := http.Header{}
		if tt.allow != "" {
			resp.Set("Access-Control-Allow-Origin", tt.allow)
		}
		if got := Readable(r, resp); got != tt.want {
			t.Errorf("%+v: Readable = %v, want %v", tt, got, tt.want)
		}
	}
}

func TestSecureRequestTLSOrLocalhost(t *testing.T) {
	for _, tt := range []struct {
		host string
		tls  bool
		want bool
	}{
		{"example.com", true, true},
		{"example.com", false, false},
		{"localhost:8080", false, true},
		{"app.localhost", false, true},
		{"127.0.0.1:1234", false, true},
		{"127.9.9.9", false, true},
		{"[::1]:80", false, true},
		{"localhost.example.com", false, false},
		{"10.0.0.1", false, false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = tt.host
		r.TLS = nil
		if tt.tls {
			r.TLS = &tls.ConnectionState{}
		}
		if got := SecureRequest(r); got != tt.want {
			t.Errorf("Host %s, TLS %v: SecureRequest = %v, want %v", tt.host, tt.tls, got, tt.want)
		}
	}
}

func TestPublicResponse(t *testing.T) {
	for _, tt := range []struct {
		cc, cookie, auth string
		want             bool
	}{
		{"max-age=60", "", "", true},
		{"public", "", "", true},
		{"s-maxage=60", "", "Bearer x", true},
		{"public, max-age=60", "", "Bearer x", true},
		{"max-age=60", "", "Bearer x", false},
		{"", "", "", false},
		{"no-cache", "", "", false},
		{"private, max-age=60", "", "", false},
		{"public, no-store", "", "", false},
		{"max-age=60", "s=1", "", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if tt.auth != "" {
			r.Header.Set("Authorization", tt.auth)
		}
		h := http.Header{}
		if tt.cc != "" {
			h.Set("Cache-Control", tt.cc)
		}
		if tt.cookie != "" {
			h.Set("Set-Cookie", tt.cookie)
		}
		if got := PublicResponse(r, h); got != tt.want {
			t.Errorf("%+v: PublicResponse = %v, want %v", tt, got, tt.want)
		}
	}
}

// A dcz response revalidates too, with the tag per dictionary and the Vary
// of RFC 9842 §6.2 on its 304.
func TestDictionaryResponseRevalidates(t *testing.T) {
	h, d, _ := dictionaryServer(t, 20<<10, nil)
	first := httptest.NewRecorder()
	h.ServeHTTP(first, dictionaryRequest(d, "br, dcz"))
	tag := first.Result().Header.Get("Etag")
	r := dictionaryRequest(d, "br, dcz")
	r.Header.Set("If-None-Match", tag)
	again := httptest.NewRecorder()
	h.ServeHTTP(again, r)
	res := again.Result()
	if first.Result().Header.Get("Content-Encoding") != "dcz" || res.StatusCode != http.StatusNotModified || res.Header.Get("Etag") != tag ||
		res.Header.Get("Vary") != "Accept-Encoding, Available-Dictionary" {
		t.Fatalf("dcz tag %s: revalidation got %d, header %v", tag, res.StatusCode, res.Header)
	}
}
