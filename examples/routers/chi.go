package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/squeezehttp/squeeze/encoding"
)

// chiHandler is a chi router with the middleware in its stack. chi takes
// func(http.Handler) http.Handler as it is, and wants Use before the
// routes (it panics otherwise). Recoverer comes first, so that a panic
// anywhere below it, in a handler or a middleware, becomes a 500. Leave
// chi's middleware.Compress out: one compressing layer is enough.
func chiHandler() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.Recoverer)
	r.Use(encoding.Handler)
	r.Get(itemsPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", itemsETag)
		w.Write([]byte(itemsJSON))
	})
	r.Get(missingItemPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(notFoundJSON))
	})
	r.Get("/api/panic", func(http.ResponseWriter, *http.Request) {
		panic("a handler's bug")
	})
	return r
}
