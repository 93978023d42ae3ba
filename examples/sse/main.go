// Command sse streams server-sent events through the compression middleware.
// Each event reaches the client when the handler flushes: Flush goes through
// the encoder (a zstd or gzip block ends there) and then the connection, so
// compression costs the stream no latency, only bytes.
package main

import (
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// newHandler streams an event every interval at /events until the client
// goes away.
func newHandler(interval time.Duration) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		rc := http.NewResponseController(w)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
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
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", newHandler(time.Second)))
}
