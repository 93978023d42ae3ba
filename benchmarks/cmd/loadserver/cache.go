package main

import (
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/CAFxX/httpcompression"
	"github.com/klauspost/compress/gzhttp"
	"github.com/squeezehttp/squeeze/benchmarks/load"
	"github.com/squeezehttp/squeeze/encoding"
)

// cacheBudget is the encoding.Cache of the /cached/ routes.
const cacheBudget = 64 << 20

// Levels of the /cached/higher/ route. A cache pays for a repeated body's
// compression at most twice, so it can afford a higher level than per-request
// compression: these are one step above the per-request level 4, the
// lowest whose output on the asset is no larger than nginx's C brotli and
// zlib at 4 (the report's bytes column shows it for each run).
const (
	cacheHigherBrotli = 5
	cacheHigherGzip   = 6
)

// cacheRoutes adds the routes that compare the middleware's cache with
// compressing per request, ours and the peers' (which have no cache):
//
//	/cached/asset        the asset through the middleware with Config.Cache
//	/cached/higher/asset the same at br 5 and gzip 6, with its own Cache
//	/peer/gzhttp/asset   the asset through gzhttp (gzip at level)
//	/peer/hc/asset       the asset through httpcompression (br and gzip at level)
//	/dynjson             4 KB of JSON that differs on every request, no cache
//	/cached/dynjson      the same with Config.Cache: every request a miss
func cacheRoutes(mux *http.ServeMux, level int, asset http.Handler) error {
	cache, err := encoding.NewCache(cacheBudget)
	if err != nil {
		return err
	}
	codings := []encoding.Coding{
		{Codec: encoding.Zstd(), Level: level},
		{Codec: encoding.Brotli(), Level: level},
		{Codec: encoding.Gzip(), Level: level},
	}
	cached, err := encoding.New(encoding.Config{Codings: codings, Cache: cache})
	if err != nil {
		return err
	}
	plain, err := encoding.New(encoding.Config{Codings: codings})
	if err != nil {
		return err
	}
	dyn := dynamicJSON(4 << 10)
	mux.Handle("/dynjson", plain.Handler(dyn))
	mux.Handle("/cached/dynjson", cached.Handler(dyn))
	if asset == nil {
		return nil
	}
	mux.Handle("/cached/asset", cached.Handler(asset))
	higherCache, err := encoding.NewCache(cacheBudget)
	if err != nil {
		return err
	}
	higher, err := encoding.New(encoding.Config{Cache: higherCache, Codings: []encoding.Coding{
		{Codec: encoding.Brotli(), Level: cacheHigherBrotli},
		{Codec: encoding.Gzip(), Level: cacheHigherGzip},
	}})
	if err != nil {
		return err
	}
	mux.Handle("/cached/higher/asset", higher.Handler(asset))
	gz, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(level), gzhttp.EnableZstd(false))
	if err != nil {
		return fmt.Errorf("loadserver: gzhttp: %w", err)
	}
	mux.Handle("/peer/gzhttp/asset", gz(asset))
	hc, err := httpcompression.Adapter(httpcompression.BrotliCompressionLevel(level), httpcompression.GzipCompressionLevel(level))
	if err != nil {
		return fmt.Errorf("loadserver: httpcompression: %w", err)
	}
	mux.Handle("/peer/hc/asset", hc(asset))
	return nil
}

// dynamicJSON returns a handler writing about size bytes of JSON that
// differ on every request: a sequence number, then a fixed list.
func dynamicJSON(size int) http.Handler {
	items := load.JSON(size)
	var seq atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var head [48]byte
		b := append(head[:0], `{"seq":`...)
		b = strconv.AppendInt(b, seq.Add(1), 10)
		b = append(b, `,"items":`...)
		w.Write(b)
		w.Write(items)
		w.Write([]byte("}"))
	})
}
