package dictionary

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// apiSamples returns n responses of a JSON API route: 2 KiB cuts, one after
// the other, of the corpus source named name (of a JSON kind), as many as
// it holds up to n.
func apiSamples(t testing.TB, name string, n int) [][]byte {
	t.Helper()
	srcs, err := corpus.Sources()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if s.Name != name {
			continue
		}
		var out [][]byte
		for off := 0; off+2048 <= len(s.Data) && len(out) < n; off += 2048 {
			out = append(out, s.Data[off:off+2048])
		}
		return out
	}
	t.Fatalf("no corpus source %q", name)
	return nil
}

// randomSamples returns n bodies of random bytes, which no dictionary helps.
func randomSamples(n int) [][]byte {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, 2048)
		for j := range out[i] {
			out[i][j] = byte(rng.Uint32())
		}
	}
	return out
}

func newRoute(t testing.TB, store *Store) *Route {
	t.Helper()
	r, err := NewRoute(RouteConfig{Match: "/api/*", Path: "/dictionaries/api", Store: store})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A route dictionary is announced when it makes the held-back samples at
// least MinGain times smaller than br and zstd, and not otherwise: on
// random bodies it saves nothing, so it is neither served, linked nor
// stored.
func TestRouteAnnouncesOnlyWhatPays(t *testing.T) {
	store := NewStore(0)
	r := newRoute(t, store)
	g, err := r.Build(randomSamples(20))
	if err != nil {
		t.Fatal(err)
	}
	if g.Announced || g.Ratio >= DefaultMinGain {
		t.Fatalf("random samples: announced %v at ratio %.2f", g.Announced, g.Ratio)
	}
	if _, ok := r.Announced(); ok || store.Bytes() != 0 {
		t.Fatal("a dictionary that does not pay was announced or stored")
	}
	h := http.Header{}
	r.Link(h)
	if h["Link"] != nil {
		t.Fatalf("Link %q with no dictionary announced", h["Link"])
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/dictionaries/api", nil))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("dictionary served with none announced: %d", rec.Code)
	}

	g, err = r.Build(apiSamples(t, "orders.json", 40))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("orders.json: %d held back, zstd %d, br %d, dcz %d: %.2f× smaller than the better", g.Samples, g.Zstd, g.Brotli, g.DCZ, g.Ratio)
	if !g.Announced || g.Ratio < DefaultMinGain || store.Lookup(g.Hash) == nil {
		t.Fatalf("JSON API samples: announced %v at ratio %.2f, stored %v", g.Announced, g.Ratio, store.Lookup(g.Hash) != nil)
	}
	if got, ok := r.Announced(); !ok || got.Hash != g.Hash {
		t.Fatal("Announced does not report the dictionary Build announced")
	}
	r.Link(h)
	if want := `</dictionaries/api>; rel="compression-dictionary"`; h.Get("Link") != want {
		t.Fatalf("Link %q, want %q", h.Get("Link"), want)
	}
}

// RFC 9842 §2.1: the dictionary is served with Use-As-Dictionary naming the
// route's pattern and an id, fresh for MaxAge (§2.2.1), with a strong ETag
// that revalidates it.
func TestRouteServesItsDictionary_RFC9842_2_1(t *testing.T) {
	r := newRoute(t, NewStore(0))
	g, err := r.Build(apiSamples(t, "orders.json", 40))
	if err != nil || !g.Announced {
		t.Fatalf("not announced: %v", err)
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/dictionaries/api", nil))
	h := rec.Header()
	d := r.store.Lookup(g.Hash)
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), d.Bytes()) {
		t.Fatalf("status %d, %d bytes; want 200 and the %d of the dictionary", rec.Code, rec.Body.Len(), d.Len())
	}
	if want := `match="/api/*", id="` + d.tag() + `"`; h.Get("Use-As-Dictionary") != want {
		t.Errorf("Use-As-Dictionary %q, want %q", h.Get("Use-As-Dictionary"), want)
	}
	if want := "public, max-age=86400"; h.Get("Cache-Control") != want {
		t.Errorf("Cache-Control %q, want %q", h.Get("Cache-Control"), want)
	}
	req := httptest.NewRequest("GET", "/dictionaries/api", nil)
	req.Header.Set("If-None-Match", h.Get("ETag"))
	rec = httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match %s: status %d, want 304", h.Get("ETag"), rec.Code)
	}
}

// A request under the route that names the dictionary gets its response
// as dcz through the middleware, and the body decodes with the dictionary.
func TestRouteDictionaryServesDCZ(t *testing.T) {
	store := NewStore(0)
	r := newRoute(t, store)
	samples := apiSamples(t, "orders.json", 40)
	g, err := r.Build(samples)
	if err != nil || !g.Announced {
		t.Fatalf("not announced: %v", err)
	}
	body := samples[4] // held back: not in the dictionary
	mw := newMiddleware(t, Config{Store: store})
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=60")
		w.Write(body)
	}))
	req := httptest.NewRequest("GET", "http://localhost/api/orders?page=9", nil)
	req.Header.Set("Accept-Encoding", "gzip, br, zstd, dcz")
	req.Header.Set("Available-Dictionary", ":"+base64.StdEncoding.EncodeToString(g.Hash[:])+":")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Encoding"); got != "dcz" {
		t.Fatalf("Content-Encoding %q, want dcz", got)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(), zstd.WithDecoderDictRaw(0, store.Lookup(g.Hash).Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	got, err := dec.DecodeAll(rec.Body.Bytes(), nil)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("decoded %d bytes, %v; want the %d written", len(got), err, len(body))
	}
	t.Logf("%d bytes as dcz, of %d", rec.Body.Len(), len(body))
}

// A new dictionary replaces the announced one only when it saves MinGain
// more on the held-back samples: the same responses keep the dictionary,
// changed ones rotate it, and the old one stays in the Store for the
// clients that hold it.
func TestRouteRotatesWhenTheResponsesChange(t *testing.T) {
	store := NewStore(0)
	r := newRoute(t, store)
	first, err := r.Build(apiSamples(t, "orders.json", 40))
	if err != nil || !first.Announced {
		t.Fatalf("first: not announced: %v", err)
	}
	again := apiSamples(t, "orders.json", 40)
	again = append(again[1:], again[0]) // the same responses, in another order
	g, err := r.Build(again)
	if err != nil {
		t.Fatal(err)
	}
	if g.Announced || !g.Kept {
		t.Fatalf("the same responses rotated the dictionary (announced %v, kept %v)", g.Announced, g.Kept)
	}
	g, err = r.Build(apiSamples(t, "issues.json", 40))
	if err != nil {
		t.Fatal(err)
	}
	if !g.Announced || !g.Replaced {
		t.Fatalf("changed responses did not rotate the dictionary: %+v", g)
	}
	if store.Lookup(first.Hash) == nil {
		t.Fatal("the old dictionary left the Store with the rotation")
	}
}

// collectThrough serves the requests through r.Collect(h).
func collectThrough(r *Route, h http.HandlerFunc, reqs ...*http.Request) {
	c := r.Collect(h)
	for _, req := range reqs {
		c.ServeHTTP(httptest.NewRecorder(), req)
	}
}

// RFC 9842 §9.2: a dictionary made of one user's response would carry it
// to every other user, so Collect keeps only responses a shared cache could
// store, of GET requests under the route's pattern, sent whole and
// uncoded.
func TestCollectKeepsOnlyPublicResponses_RFC9842_9_2(t *testing.T) {
	body := []byte(`{"id":1,"items":[{"sku":"a-1","qty":2}]}`)
	cases := []struct {
		name   string
		method string
		path   string
		header map[string]string // of the response
		auth   bool
		status int
	}{
		{"Set-Cookie", "GET", "/api/x", map[string]string{"Cache-Control": "public, max-age=60", "Set-Cookie": "s=1"}, false, 200},
		{"Authorization", "GET", "/api/x", map[string]string{"Cache-Control": "max-age=60"}, true, 200},
		{"private", "GET", "/api/x", map[string]string{"Cache-Control": "private, max-age=60"}, false, 200},
		{"no-store", "GET", "/api/x", map[string]string{"Cache-Control": "no-store"}, false, 200},
		{"no Cache-Control", "GET", "/api/x", nil, false, 200},
		{"POST", "POST", "/api/x", map[string]string{"Cache-Control": "public, max-age=60"}, false, 200},
		{"outside the pattern", "GET", "/other/x", map[string]string{"Cache-Control": "public, max-age=60"}, false, 200},
		{"404", "GET", "/api/x", map[string]string{"Cache-Control": "public, max-age=60"}, false, 404},
		{"already encoded", "GET", "/api/x", map[string]string{"Cache-Control": "public, max-age=60", "Content-Encoding": "br"}, false, 200},
	}
	for _, tc := range cases {
		r := newRoute(t, NewStore(0))
		req := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.auth {
			req.Header.Set("Authorization", "Bearer secret")
		}
		collectThrough(r, func(w http.ResponseWriter, _ *http.Request) {
			for k, v := range tc.header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(tc.status)
			w.Write(body)
		}, req)
		if len(r.collected) != 0 {
			t.Errorf("%s: the response was kept as a sample", tc.name)
		}
	}
	r := newRoute(t, NewStore(0))
	collectThrough(r, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=60")
		w.Write(body)
	}, httptest.NewRequest("GET", "/api/x", nil))
	if len(r.collected) != 1 || !bytes.Equal(r.collected[0], body) {
		t.Fatalf("a public response was not kept: %d samples", len(r.collected))
	}
}

// A client that makes the route's responses whatever it likes (a search
// echoing its query, say) cannot get a dictionary of them announced: with
// no samples of the application's, collected ones build nothing, and with
// them, a collected dictionary must compress the application's held-back
// samples better than the announced one.
func TestCollectedBodiesCannotAnnounceADictionaryAlone(t *testing.T) {
	junk := randomSamples(3 * collectRebuild)
	serveJunk := func(r *Route) {
		var reqs []*http.Request
		for range junk {
			reqs = append(reqs, httptest.NewRequest("GET", "/api/search", nil))
		}
		i := 0
		collectThrough(r, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Cache-Control", "public, max-age=60")
			w.Write(junk[i])
			i++
		}, reqs...)
	}
	waitBuilds := func(r *Route) {
		deadline := time.Now().Add(10 * time.Second)
		for {
			r.mu.Lock()
			busy := r.building
			r.mu.Unlock()
			if !busy || time.Now().After(deadline) {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	store := NewStore(0)
	r := newRoute(t, store)
	serveJunk(r)
	waitBuilds(r)
	if _, ok := r.Announced(); ok || store.Bytes() != 0 {
		t.Fatal("collected bodies alone made a dictionary")
	}

	app, err := r.Build(apiSamples(t, "orders.json", 40))
	if err != nil || !app.Announced {
		t.Fatalf("the application's samples were not announced: %v", err)
	}
	serveJunk(r)
	waitBuilds(r)
	if g, _ := r.Announced(); g.Hash != app.Hash {
		t.Fatal("collected bodies replaced the dictionary of the application's samples")
	}
}

// The route's pattern matches paths as RFC 9842's URL patterns do with *
// as their only special character.
func TestMatchPath(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/api/*", "/api/orders", true},
		{"/api/*", "/api/", true},
		{"/api/*", "/api", false},
		{"/api/*", "/apix/orders", false},
		{"/api/*/items", "/api/1/items", true},
		{"/api/*/items", "/api/1/2/items", true},
		{"/api/*/items", "/api/1/item", false},
		{"/a/*.json", "/a/b.json", true},
		{"/exact", "/exact", true},
		{"/exact", "/exactly", false},
		{"*", "/anything", true},
	} {
		if got := matchPath(tc.pattern, tc.path); got != tc.want {
			t.Errorf("matchPath(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// NewRoute reports a misconfiguration when the route is made.
func TestNewRouteRefusesMisconfiguration(t *testing.T) {
	store := NewStore(0)
	for _, cfg := range []RouteConfig{
		{Path: "/d", Store: store},
		{Match: "/api/(x)", Path: "/d", Store: store},
		{Match: "/api/*", Store: store},
		{Match: "/api/*", Path: "d", Store: store},
		{Match: "/api/*", Path: "/d"},
		{Match: "/api/*", Path: "/d", Store: store, MaxBytes: -1},
		{Match: "/api/*", Path: "/d", Store: store, MaxBytes: 2 << 20},
		{Match: "/api/*", Path: "/d", Store: store, MinGain: 0.5},
		{Match: "/api/*", Path: "/d", Store: store, MaxAge: -time.Second},
		{Match: "/api/*", Path: "/d", Store: store, Level: 23},
	} {
		if _, err := NewRoute(cfg); err == nil {
			t.Errorf("NewRoute(%+v) made a route", cfg)
		} else if !strings.HasPrefix(err.Error(), "dictionary: ") {
			t.Errorf("error %q does not name the package", err)
		}
	}
	if _, err := NewRoute(RouteConfig{Match: "/api/*", Path: "/d", Store: store}); err != nil {
		t.Fatal(err)
	}
}
