// Command sse streams server-sent events through the compression middleware.
// Each event reaches the client when the handler flushes: Flush goes through
// the encoder (a zstd or gzip block ends there) and then the connection, so
// compression costs the stream no latency, only bytes.
//
// The server has a WriteTimeout, as every server facing the internet
// should; it counts from the request, so a stream that outlives it would be
// cut (the client sees an unexpected EOF). The handler renews the deadline
// before each event with http.ResponseController.SetWriteDeadline, which
// reaches the connection through the middleware.
package main

import (
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// writeTimeout bounds the writing of a response, and of each event of a
// stream.
const writeTimeout = 10 * time.Second

// newHandler streams an event every interval at /events until the client
// goes away, each event with writeTimeout to reach the client.
func newHandler(interval, writeTimeout time.Duration) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		rc := http.NewResponseController(w)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			// The server's WriteTimeout would end the stream: renew it.
			if err := rc.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				return
			}
			fmt.Fprintf(w, "id: %d\ndata: {\"tick\":%d,\"at\":%q}\n\n", i, i, time.Now().Format(time.RFC3339Nano))
			// Without this the event would wait in the encoder's buffer.
			if err := rc.Flush(); err != nil {
				return
			}
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	})
	// text/event-stream is compressible by default; the stream is longer
	// than any MinSize, so it is compressed from its first event on.
	return encoding.Handler(mux)
}

func main() {
	srv := &http.Server{
		Addr:              "127.0.0.1:8080",
		Handler:           newHandler(time.Second, writeTimeout),
		ReadHeaderTimeout: 10 * time.Second,
		WriteTimeout:      writeTimeout,
	}
	log.Fatal(srv.ListenAndServe())
}
