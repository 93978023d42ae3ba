// Command loadserver is the server side of the benchmark report's load
// tests: squeeze's encoding middleware, precompressed.FileServer and
// http.FileServer behind one mux, plus the endpoints the scaling runs
// need. The report starts it as a process of its own, so that wrk's CPU
// and the report's memory are not counted against it and its peak RSS can
// be read from /proc.
//
//	go run ./cmd/loadserver -addr 127.0.0.1:8080 -static DIR -fallback DIR
//
// Routes:
//
//	/json        a 4 KB JSON reply through the middleware (-json, or generated)
//	/asset       -asset's bytes through the middleware, compressed per request
//	/static/     precompressed.FileServer over -static (with sidecars)
//	/fallback/   precompressed.FileServer over -fallback (no sidecars: cached on-the-fly copies)
//	/files/      http.FileServer over -static (the uncompressed baseline)
//	/memory/     each -static file's .br sidecar from memory, as a plain handler writes it (Go's ceiling)
//	/stream      a compressed response that sends 160 KB and stays in flight until /release
//	/release     lets every /stream response finish
//	/ws          a wsdeflate echo: answers one message, then stays idle
//	/mem         heap in use after GC, responses in flight, WebSocket connections (JSON)
//	/cached/..., /peer/..., /dynjson: the compression cache against per-request compression (cache.go)
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squeezehttp/squeeze/benchmarks/load"
	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/precompressed"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (loopback only)")
	level := flag.Int("level", 4, "compression level for zstd, br and gzip in the middleware")
	jsonFile := flag.String("json", "", "file served at /json (default: 4 KB of generated JSON)")
	assetFile := flag.String("asset", "", "file served at /asset through the middleware")
	static := flag.String("static", "", "directory for /static/ and /files/")
	fallback := flag.String("fallback", "", "directory without sidecars for /fallback/")
	flag.Parse()
	if !strings.HasPrefix(*addr, "127.0.0.1:") {
		log.Fatalf("loadserver: -addr %s: only 127.0.0.1 is allowed", *addr)
	}
	s, err := newServer(*level, *jsonFile, *assetFile, *static, *fallback)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: *addr, Handler: s.mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// server holds the state of the scaling endpoints.
type server struct {
	mux      *http.ServeMux
	inFlight atomic.Int64
	wsConns  atomic.Int64
	mu       sync.Mutex
	gate     chan struct{} // closed by /release
}

func newServer(level int, jsonFile, assetFile, static, fallback string) (*server, error) {
	mw, err := encoding.New(encoding.Config{Codings: []encoding.Coding{
		{Codec: encoding.Zstd(), Level: level},
		{Codec: encoding.Brotli(), Level: level},
		{Codec: encoding.Gzip(), Level: level},
	}})
	if err != nil {
		return nil, fmt.Errorf("loadserver: %w", err)
	}
	s := &server{mux: http.NewServeMux(), gate: make(chan struct{})}
	jsonBody := load.JSON(4 << 10)
	if jsonFile != "" {
		if jsonBody, err = os.ReadFile(jsonFile); err != nil {
			return nil, fmt.Errorf("loadserver: %w", err)
		}
	}
	s.mux.Handle("/json", mw.Handler(bytesHandler("application/json", jsonBody)))
	var assetHandler http.Handler
	if assetFile != "" {
		asset, err := os.ReadFile(assetFile)
		if err != nil {
			return nil, fmt.Errorf("loadserver: %w", err)
		}
		ctype := mime.TypeByExtension(filepath.Ext(assetFile))
		assetHandler = bytesHandler(ctype, asset)
		s.mux.Handle("/asset", mw.Handler(assetHandler))
	}
	if err := cacheRoutes(s.mux, level, assetHandler); err != nil {
		return nil, err
	}
	if static != "" {
		root, err := os.OpenRoot(static)
		if err != nil {
			return nil, fmt.Errorf("loadserver: %w", err)
		}
		s.mux.Handle("/static/", http.StripPrefix("/static", precompressed.FileServerRoot(root, precompressed.Config{})))
		s.mux.Handle("/files/", http.StripPrefix("/files", http.FileServer(http.Dir(static))))
		memory, err := memoryHandler(static)
		if err != nil {
			return nil, err
		}
		s.mux.Handle("/memory/", http.StripPrefix("/memory", memory))
	}
	if fallback != "" {
		root, err := os.OpenRoot(fallback)
		if err != nil {
			return nil, fmt.Errorf("loadserver: %w", err)
		}
		s.mux.Handle("/fallback/", http.StripPrefix("/fallback", precompressed.FileServerRoot(root, precompressed.Config{})))
	}
	s.mux.Handle("/stream", mw.Handler(http.HandlerFunc(s.stream)))
	s.mux.HandleFunc("/release", s.release)
	s.mux.HandleFunc("/ws", s.ws)
	s.mux.HandleFunc("/mem", s.mem)
	return s, nil
}

// memoryHandler serves, as /NAME, the bytes of NAME.br in dir, read once:
// what the simplest handler that holds them does, with the header a
// precompressed sidecar response carries and nothing else to do. It is
// the ceiling a Go file server reaches on net/http.
func memoryHandler(dir string) (http.Handler, error) {
	held := map[string][]byte{}
	names, err := filepath.Glob(filepath.Join(dir, "*.br"))
	if err != nil {
		return nil, fmt.Errorf("loadserver: %w", err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("loadserver: %w", err)
		}
		held["/"+strings.TrimSuffix(filepath.Base(name), ".br")] = b
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := held[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", mime.TypeByExtension(path.Ext(r.URL.Path)))
		h.Set("Content-Encoding", "br")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		h.Set("Vary", "Accept-Encoding")
		w.Write(body)
	}), nil
}

func bytesHandler(ctype string, body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Write(body)
	})
}

// streamBody is larger than the middleware's default 128 KiB buffer, so a
// /stream response holds a streaming encoder while it waits.
var streamBody = load.JSON(160 << 10)

// stream sends streamBody, flushes it through the encoder and waits for
// /release: one compressed response in flight.
func (s *server) stream(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	gate := s.gate
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(streamBody)
	http.NewResponseController(w).Flush()
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	select {
	case <-gate:
	case <-r.Context().Done():
	}
}

// release ends the responses waiting in /stream and arms a new gate.
func (s *server) release(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	close(s.gate)
	s.gate = make(chan struct{})
	s.mu.Unlock()
}

// ws echoes the first message and then waits, idle, for the client to
// close.
func (s *server) ws(w http.ResponseWriter, r *http.Request) {
	c, err := wsdeflate.Accept(w, r, nil)
	if err != nil {
		return
	}
	s.wsConns.Add(1)
	defer s.wsConns.Add(-1)
	ctx := context.Background()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			c.Close(wsdeflate.StatusNormalClosure, "")
			return
		}
		if err := c.Write(ctx, typ, msg); err != nil {
			return
		}
	}
}

// memStats is /mem's reply.
type memStats struct {
	HeapInuse  uint64 `json:"heap_inuse"`
	StackInuse uint64 `json:"stack_inuse"`
	InFlight   int64  `json:"in_flight"`
	WSConns    int64  `json:"ws_conns"`
}

func (s *server) mem(w http.ResponseWriter, r *http.Request) {
	// Two cycles: the second empties sync.Pool's victim cache, so pooled
	// encoders nobody holds are not counted.
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(memStats{m.HeapInuse, m.StackInuse, s.inFlight.Load(), s.wsConns.Load()})
}
