package main

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/precompressed"
)

// staticFiles is the demo's embedded site with its sidecars (.zst, .br, .gz)
// and the manifest that vouches for them, all made by the generator and
// committed, so that go run needs nothing else. Run go generate after
// editing a file under static/.
//
//go:generate go run github.com/squeezehttp/squeeze/precompressed/cmd/precompress -q -manifest precompress.json static
//go:embed static
var staticFiles embed.FS

// statsRoute is the route the page polls, which the chart leaves out.
const statsRoute = "GET /stats"

// newHandler builds the demo's routes: static files from static (the
// embedded site when nil) through precompressed, the rest behind the
// compression middleware. The encoders are warmed before it returns.
func newHandler(static fs.FS) (http.Handler, error) {
	var cfg precompressed.Config
	if static == nil {
		sub, err := fs.Sub(staticFiles, "static")
		if err != nil {
			return nil, err
		}
		// embed.FS cannot change after the build, so the manifest is
		// trusted as it is and ETags come from its hashes.
		if cfg.Manifest, err = precompressed.ReadManifest(sub, precompressed.DefaultManifest); err != nil {
			return nil, err
		}
		static = sub
	}
	// A directory of the user's (-root) has no manifest: its sidecars are
	// served when not stale, and files without one are compressed once
	// and kept in FileServer's cache.
	t := newTally()
	mw, err := encoding.New(encoding.Config{OnResponse: t.record})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	// The middleware wraps each route rather than the whole mux, so that
	// OnResponse sees only requests the demo serves, with the route's
	// pattern: a request for a made-up path gets the mux's 404 directly.
	handle := func(pattern string, h http.Handler) { mux.Handle(pattern, mw.Handler(h)) }
	handle("GET /{$}", http.HandlerFunc(servePage))
	handle("GET /api/items", http.HandlerFunc(serveItems))
	handle("GET /events", newLimit(maxStreams).wrap("event streams", http.HandlerFunc(serveEvents)))
	handle(statsRoute, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(t.snapshot())
	}))
	// The middleware passes WebSocket upgrades through untouched; the
	// messages are compressed by permessage-deflate instead.
	// "/ws", not "GET /ws": over HTTP/2 a WebSocket arrives as a CONNECT
	// (RFC 8441), which a GET pattern would answer with 405.
	handle("/ws", newChat())
	// Static files negotiate their own coding; the middleware stays out.
	mux.Handle("/static/", http.StripPrefix("/static", precompressed.FileServer(static, cfg)))
	if err := warm(mux); err != nil {
		return nil, err
	}
	t.reset()
	return withSecurityHeaders(mux), nil
}

func serveItems(w http.ResponseWriter, r *http.Request) {
	items := make([]map[string]any, 200)
	for i := range items {
		items[i] = map[string]any{"id": i, "name": fmt.Sprintf("item %d", i), "tags": []string{"demo", "squeeze"}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"items": items})
}

// maxStreams is how many /events streams may run at once; the next is
// refused with 503. Each holds a streaming encoder, with its window, for the
// whole stream, so without a bound many clients could hold memory without
// end.
const maxStreams = 32

// serveEvents sends ten events half a second apart, each flushed, until the
// client goes away or the server shuts down.
func serveEvents(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	for i := range 10 {
		// The server's WriteTimeout counts from the request: the stream
		// outlives it, so each event gets a deadline of its own (a writer
		// without deadlines, such as warm's, has none to renew).
		if err := rc.SetWriteDeadline(time.Now().Add(responseWriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return
		}
		fmt.Fprintf(w, "id: %d\ndata: {\"tick\":%d,\"at\":%q}\n\n", i, i, time.Now().Format(time.RFC3339Nano))
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
}
