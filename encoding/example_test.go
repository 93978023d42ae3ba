package encoding_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
)

// Wrap a mux and every response it sends is compressed for the clients that
// accept it.
func Example() {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/items", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"items":[`+strings.Repeat(`{"id":1,"name":"squeeze"},`, 100)+`{}]}`)
	})
	h := encoding.Handler(mux)

	r := httptest.NewRequest("GET", "/api/items", nil)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Header().Get("Content-Encoding"), w.Header().Get("Vary"), w.Body.Len() < 200)
	// Output: zstd Accept-Encoding true
}

// A handler that sets an ETag and compares If-None-Match with it by ==
// keeps answering 304 behind the middleware, which tags the compressed
// response per coding: the handler sees its own tag. A handler that never
// looks at If-None-Match gets the same 304 from the middleware.
func Example_conditionalRequests() {
	h := encoding.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v7"`)
		w.Header().Set("Content-Type", "text/css")
		if r.Header.Get("If-None-Match") == `"v7"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, strings.Repeat("body { margin: 0 }\n", 100))
	}))
	get := func(header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/site.css", nil)
		r.Header.Set("Accept-Encoding", "br")
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	first := get()
	etag := first.Header().Get("ETag")
	again := get("If-None-Match", etag)
	fmt.Println(first.Code, etag, again.Code, again.Header().Get("ETag"))
	// Output: 200 "v7-br" 304 "v7-br"
}

// A Config chooses the codings and levels, what is compressed, and a hook
// for metrics.
func ExampleNew() {
	mw, err := encoding.New(encoding.Config{
		Codings: []encoding.Coding{
			{Codec: encoding.Brotli(), Level: 4}, // DefaultCodings' levels
			{Codec: encoding.Gzip(), Level: 5},
		},
		MinSize: 512,
		Types:   func(mediaType string) bool { return mediaType == "application/json" },
		OnResponse: func(r *http.Request, s encoding.Stats) {
			fmt.Printf("%s %s: %d bytes in, %.0f%% out\n", r.URL.Path, s.Coding, s.BytesIn, 100*float64(s.BytesOut)/float64(s.BytesIn))
		},
	})
	if err != nil {
		panic(err)
	}
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.Repeat(`{"ok":true}`, 100))
	}))
	r := httptest.NewRequest("GET", "/status", nil)
	r.Header.Set("Accept-Encoding", "gzip, br")
	h.ServeHTTP(httptest.NewRecorder(), r)
	// Output: /status br: 1100 bytes in, 2% out
}

// Routers such as chi take middleware as a func(http.Handler) http.Handler;
// the method value mw.Handler is one, so it goes into such a chain as it is.
func ExampleMiddleware_Handler() {
	mw, err := encoding.New(encoding.Config{})
	if err != nil {
		panic(err)
	}
	chain := []func(http.Handler) http.Handler{mw.Handler} // what r.Use(mw.Handler) keeps
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, strings.Repeat("compressed by the chain ", 100))
	})
	for _, use := range chain {
		h = use(h)
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Header().Get("Content-Encoding"))
	// Output: gzip
}
