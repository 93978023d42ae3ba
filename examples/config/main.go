// Command config sets up the compression middleware by hand: which codings
// and at what levels, which media types, the smallest body worth it, and an
// OnResponse hook that publishes what it did through expvar at /debug/vars.
package main

import (
	"expvar"
	"log"
	"net/http"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
)

// metrics is published once, at start-up, as expvar requires: per coding
// sent, the responses, the bytes the handlers wrote and the bytes sent,
// and per origin (encoder, cache, handler) the responses.
var metrics = expvar.NewMap("squeeze")

func record(r *http.Request, s encoding.Stats) {
	coding := s.Coding
	if coding == "" {
		coding = "identity"
	}
	metrics.Add("origin."+s.Origin.String()+".responses", 1)
	metrics.Add(coding+".responses", 1)
	metrics.Add(coding+".bytes_in", s.BytesIn)
	metrics.Add(coding+".bytes_out", s.BytesOut)
	metrics.Add(coding+".nanoseconds", s.Duration.Nanoseconds())
}

// newHandler serves the app at / and the metrics at /debug/vars, both
// through the configured middleware.
func newHandler() (http.Handler, error) {
	mw, err := encoding.New(encoding.Config{
		// Server preference when the client's weights tie: zstd is the
		// cheapest per byte saved, brotli next, gzip for the rest. The
		// levels are DefaultCodings' (0 would say the same): brotli's 11
		// is for precompressed files; at 4 and 5 squeeze's own encoders
		// take over the small bodies where they keep the level's promise.
		Codings: []encoding.Coding{
			{Codec: encoding.Zstd(), Level: 3},
			{Codec: encoding.Brotli(), Level: 4},
			{Codec: encoding.Gzip(), Level: 5},
		},
		// Below 512 bytes the framing and the CPU outweigh the saving.
		MinSize: 512,
		// Only what this service sends; images and archives never come here.
		Types: func(mediaType string) bool {
			return mediaType == "application/json" || strings.HasPrefix(mediaType, "text/")
		},
		OnResponse: record,
	})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"items":[` + strings.Repeat(`{"name":"squeeze","ok":true},`, 50) + `{}]}`))
	})
	mux.Handle("GET /debug/vars", expvar.Handler())
	return mw.Handler(mux), nil
}

func main() {
	h, err := newHandler()
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
