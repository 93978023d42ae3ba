package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"sync"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/precompressed"
)

// staticFiles is the demo's embedded site; files without a sidecar are
// compressed once by precompressed.FileServer and served from its cache.
//
//go:embed static
var staticFiles embed.FS

// tally keeps what the OnResponse hook reports, per coding.
type tally struct {
	mu    sync.Mutex
	stats map[string]*codingStats
}

type codingStats struct {
	Responses int64
	BytesIn   int64
	BytesOut  int64
	Time      time.Duration
}

func (t *tally) record(r *http.Request, s encoding.Stats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	name := s.Coding
	if name == "" {
		name = "identity"
	}
	c := t.stats[name]
	if c == nil {
		c = new(codingStats)
		t.stats[name] = c
	}
	c.Responses++
	c.BytesIn += s.BytesIn
	c.BytesOut += s.BytesOut
	c.Time += s.Duration
}

func (t *tally) snapshot() map[string]codingStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]codingStats, len(t.stats))
	for k, v := range t.stats {
		out[k] = *v
	}
	return out
}

// newHandler builds the demo's routes: static files from static (the
// embedded site when nil) through precompressed, the rest behind the
// compression middleware.
func newHandler(static fs.FS) (http.Handler, error) {
	if static == nil {
		sub, err := fs.Sub(staticFiles, "static")
		if err != nil {
			return nil, err
		}
		static = sub
	}
	t := &tally{stats: map[string]*codingStats{}}
	mw, err := encoding.New(encoding.Config{OnResponse: t.record})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		page.Execute(w, map[string]string{"Accept": r.Header.Get("Accept-Encoding")})
	})
	mux.HandleFunc("GET /api/items", func(w http.ResponseWriter, r *http.Request) {
		items := make([]map[string]any, 200)
		for i := range items {
			items[i] = map[string]any{"id": i, "name": fmt.Sprintf("item %d", i), "tags": []string{"demo", "squeeze"}}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"items": items})
	})
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		for i := range 10 {
			fmt.Fprintf(w, "id: %d\ndata: {\"tick\":%d,\"at\":%q}\n\n", i, i, time.Now().Format(time.RFC3339Nano))
			if err := http.NewResponseController(w).Flush(); err != nil {
				return
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(t.snapshot())
	})
	root := http.NewServeMux()
	// Static files negotiate their own coding; the middleware stays out.
	root.Handle("/static/", http.StripPrefix("/static", precompressed.FileServer(static, precompressed.Config{})))
	root.Handle("/", mw.Handler(mux))
	return root, nil
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>squeeze demo</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><h1>squeeze</h1>
<p>Your browser sent <code>Accept-Encoding: {{.Accept}}</code>.</p>
<p><a href="/api/items">/api/items</a> · <a href="/stats">/stats</a></p>
<h2>Server-sent events</h2><div id="events"></div>
<h2>What the middleware did</h2><table id="stats"></table>
<script src="/static/app.js"></script></body></html>
`))
