package main

import (
	"net/http"

	"github.com/squeezehttp/squeeze/encoding"
)

// muxHandler is net/http's ServeMux, wrapped as a whole.
func muxHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+itemsPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", itemsETag)
		w.Write([]byte(itemsJSON))
	})
	mux.HandleFunc("GET "+missingItemPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(notFoundJSON))
	})
	return encoding.Handler(mux)
}
