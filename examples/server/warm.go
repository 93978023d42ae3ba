package main

import (
	"context"
	"fmt"
	"net/http"
)

// warmCodings are the codings the middleware offers by default.
var warmCodings = []string{"zstd", "br", "gzip", "deflate"}

// warmPaths take each coding through both of the middleware's paths: a body
// that ends while buffered (the page, /api/items) and a stream (/events).
var warmPaths = []string{"/", "/api/items", "/events"}

// warm sends each of warmPaths in each coding through h before the demo
// listens, so that what a coding costs the first time the process uses it
// (tables built once, code and memory touched for the first time) is not
// charted as the first visitor's compression time. Encoders that the
// garbage collector later takes from the middleware's pools are made again
// on a later request, at a cost this does not remove. warm fails when a
// response does not come back in the coding asked for.
func warm(h http.Handler) error {
	// A cancelled request ends /events after its first event.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, coding := range warmCodings {
		for _, path := range warmPaths {
			r, err := http.NewRequestWithContext(ctx, http.MethodGet, path, nil)
			if err != nil {
				return err
			}
			r.Header.Set("Accept-Encoding", coding)
			w := discard{http.Header{}}
			h.ServeHTTP(w, r)
			if got := w.header.Get("Content-Encoding"); got != coding {
				return fmt.Errorf("warm-up: GET %s with Accept-Encoding %s came back as %q", path, coding, got)
			}
		}
	}
	return nil
}

// discard is the ResponseWriter of warm's requests.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}
func (d discard) Flush()                      {}
