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

// staticFiles is the demo's embedded site with its sidecars (.zst, .br, .gz)
// and the manifest that vouches for them, all made by the generator and
// committed, so that go run needs nothing else. Run go generate after
// editing a file under static/.
//
//go:generate go run github.com/squeezehttp/squeeze/precompressed/cmd/precompress -q -manifest precompress.json static
//go:embed static
var staticFiles embed.FS

// recentLen is how many responses the page's "recent" list shows.
const recentLen = 6

// tally keeps what the OnResponse hook reports, per coding and for the last
// few responses.
type tally struct {
	mu     sync.Mutex
	stats  map[string]*codingStats
	recent []response // the last recentLen, oldest first
}

// response is one response as the page lists it.
type response struct {
	Path     string
	Coding   string
	BytesIn  int64
	BytesOut int64
	Time     time.Duration
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
	// The page polls /stats; listing those polls would push out everything else.
	if r.URL.Path == "/stats" {
		return
	}
	if len(t.recent) == recentLen {
		t.recent = append(t.recent[:0], t.recent[1:]...)
	}
	t.recent = append(t.recent, response{r.URL.Path, name, s.BytesIn, s.BytesOut, s.Duration})
}

// statsReply is the JSON that /stats sends.
type statsReply struct {
	Codings map[string]codingStats
	Recent  []response
}

func (t *tally) snapshot() statsReply {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := statsReply{Codings: make(map[string]codingStats, len(t.stats)), Recent: append([]response(nil), t.recent...)}
	for k, v := range t.stats {
		out.Codings[k] = *v
	}
	return out
}

// newHandler builds the demo's routes: static files from static (the
// embedded site when nil) through precompressed, the rest behind the
// compression middleware.
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
	// The middleware passes WebSocket upgrades through untouched; the
	// messages are compressed by permessage-deflate instead.
	mux.Handle("GET /ws", newChat())
	root := http.NewServeMux()
	// Static files negotiate their own coding; the middleware stays out.
	root.Handle("/static/", http.StripPrefix("/static", precompressed.FileServer(static, cfg)))
	root.Handle("/", mw.Handler(mux))
	return root, nil
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>squeeze demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css"></head>
<body>
<header><h1>squeeze</h1><p>Your browser sent <code>Accept-Encoding: {{.Accept}}</code></p></header>
<section><h2>What the middleware did</h2>
<p class="note">Bytes the handlers wrote and bytes sent, and time spent compressing, per coding, from the <code>OnResponse</code> hook.
<button id="fetch">fetch /api/items</button></p>
<svg id="chart" role="img" aria-label="bytes before and after compression per coding"></svg>
<table id="recent"></table></section>
<section><h2>Server-sent events</h2>
<p class="note">Ten events, half a second apart, each flushed through the encoder. <button id="stream">stream /events</button></p>
<div id="events" class="log"></div></section>
<section><h2>WebSocket chat</h2>
<p class="note">Every message goes to every open page, compressed with permessage-deflate. Open a second tab.</p>
<div id="chat" class="log"></div>
<form id="say"><input id="text" autocomplete="off" placeholder="say something"><button>send</button></form>
<p id="ws-status" class="note">connecting…</p></section>
<script src="/static/app.js"></script></body></html>
`))
