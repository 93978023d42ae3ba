package encoding_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/precompressed"
)

// A handler that sends the same bundle on every request has it compressed
// once with a Cache; given to precompressed too, the Cache holds one entry
// for the file and the handler's equal output.
func ExampleNewCache() {
	cache, err := encoding.NewCache(64 << 20)
	if err != nil {
		log.Fatal(err)
	}
	bundle := []byte(strings.Repeat("function f(a) { return a + 1; }\n", 200))
	var last encoding.Stats
	mw, err := encoding.New(encoding.Config{Cache: cache, OnResponse: func(_ *http.Request, s encoding.Stats) { last = s }})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/app.js", mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(bundle)
	})))
	static := fstest.MapFS{"app.js": {Data: bundle}}
	mux.Handle("/static/", http.StripPrefix("/static", precompressed.FileServer(static, precompressed.Config{Cache: cache})))

	get := func(path string) string {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Accept-Encoding", "br")
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w.Header().Get("Content-Encoding")
	}
	get("/static/app.js") // compressed once, kept
	get("/app.js")        // a body is looked up from the second time it comes
	fmt.Println(get("/app.js"), last.Cache == encoding.CacheHit)
	// Output: br true
}
