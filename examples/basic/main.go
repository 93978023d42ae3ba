// Command basic wraps an existing mux in the compression middleware: the
// three lines to copy into a service that already has an http.Handler.
package main

import (
	"log"
	"net/http"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
)

// newHandler is the service's mux, wrapped: encoding.Handler negotiates
// zstd, br, gzip or deflate with each client, with the recommended defaults.
func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(strings.Repeat("Hello, compressed world!\n", 100)))
	})
	return encoding.Handler(mux)
}

func main() {
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", newHandler()))
}
