package precompressed

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestFaultsLeaveFileServerServing cuts responses of every kind short, a
// sidecar, a file compressed into the fallback cache and a sidecar decoded
// for a client without its coding, by a client that hangs up after a few
// bytes and by a handler above the file server (behind the encoding
// middleware) that panics once the file server has written. After each the
// same file is served whole, the cache is within its budget and goroutines
// settle.
func TestFaultsLeaveFileServerServing(t *testing.T) {
	// 256 KiB of hex: it compresses to about half, so every variant is
	// far longer than the 1000 bytes the hanging-up client reads.
	rng := rand.New(rand.NewPCG(1, 2))
	var big []byte
	for len(big) < 256<<10 {
		big = fmt.Appendf(big, ".c%x{color:#%06x}\n", rng.Uint32(), rng.IntN(1<<24))
	}
	fsys := fstest.MapFS{
		"sidecar.css":         file(big),
		"sidecar.css.gz":      file(compress(t, "gzip", big)),
		"fallback.css":        file(big),
		"decoded-only.css.gz": file(compress(t, "gzip", big)),
	}
	const budget = 8 << 20
	// No background recompression: its goroutine, working on brotli 11
	// for a while, would count as one the faults left behind.
	fs := FileServer(fsys, Config{FallbackCacheBytes: budget, FallbackRecompressAfter: -1})
	cache := fs.(*server).cache
	mux := http.NewServeMux()
	mux.Handle("/", fs)
	mux.HandleFunc("/panic/", func(w http.ResponseWriter, r *http.Request) {
		http.StripPrefix("/panic", fs).ServeHTTP(w, r)
		panic("after the file server wrote")
	})
	srv := httptest.NewUnstartedServer(encoding.Handler(mux))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	for _, c := range []struct{ path, coding string }{
		{"/sidecar.css", "gzip"},
		{"/fallback.css", "zstd"},
		{"/fallback.css", "br"},
		{"/decoded-only.css", "identity"},
	} {
		for _, fault := range []string{"hang up", "panic"} {
			name := fmt.Sprintf("%s %s in %s", fault, c.path, c.coding)
			base := runtime.NumGoroutine()
			path := c.path
			if fault == "panic" {
				path = "/panic" + c.path
			}
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			nc.SetDeadline(time.Now().Add(5 * time.Second))
			fmt.Fprintf(nc, "GET %s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: %s\r\n\r\n", path, c.coding)
			br := bufio.NewReader(nc)
			if fault == "hang up" {
				if _, err := http.ReadResponse(br, nil); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				io.ReadFull(br, make([]byte, 1000))
			} else {
				io.Copy(io.Discard, br) // until the server aborts the connection
			}
			nc.Close()
			if err := fetch(t, srv.URL+c.path, c.coding, big); err != nil {
				t.Errorf("%s, then the same request: %v", name, err)
			}
			if used := cache.Used(); used > budget {
				t.Errorf("%s: the cache holds %d bytes, over its budget of %d", name, used, budget)
			}
			srv.CloseClientConnections()
			http.DefaultTransport.(*http.Transport).CloseIdleConnections()
			if n := soak.SettleGoroutines(base, 5*time.Second); n > base {
				t.Errorf("%s: goroutines %d before, %d five seconds after\n%s", name, base, n, soak.Stacks())
			}
		}
	}
}
