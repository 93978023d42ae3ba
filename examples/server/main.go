// Command server is the squeeze demo: a small site, a JSON API, a
// server-sent events stream and a WebSocket chat, all compressed, with a page
// that charts what the compression middleware did.
//
//	go run ./examples/server            # then open http://127.0.0.1:8080/
//	go run ./examples/server -addr :9000
//	go run ./examples/server -root ./public   # your own files at /static/
//	go run ./examples/server -tls -addr 0.0.0.0:8443   # https, for browsers on other hosts
//	GODEBUG=http2xconnect=1 go run ./examples/server -tls   # the chat's WebSocket over HTTP/2
//
// Browsers offer br and zstd only over https or to localhost, which is what
// -tls is for: it makes a self-signed certificate in memory at start-up.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// responseWriteTimeout is the server's WriteTimeout: how long writing a
// response may take, counted from the request. A stream lasts longer, so
// serveEvents renews the deadline before each event, and wsdeflate.Accept
// clears it for a WebSocket.
const responseWriteTimeout = 10 * time.Second

// shutdownTimeout bounds the wait for requests in flight on SIGINT or
// SIGTERM.
const shutdownTimeout = 10 * time.Second

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	rootDir := flag.String("root", "", "serve this directory at /static/ instead of the embedded files")
	useTLS := flag.Bool("tls", false, "serve https with a self-signed certificate made in memory")
	flag.Parse()

	var static fs.FS
	if *rootDir != "" {
		root, err := os.OpenRoot(*rootDir)
		if err != nil {
			log.Fatal(err)
		}
		defer root.Close()
		static = root.FS()
	}
	h, err := newHandler(static)
	if err != nil {
		log.Fatal(err)
	}
	// The demo may face other hosts (-addr 0.0.0.0:…): slow and idle
	// connections are closed, and request headers are kept small.
	// On SIGINT or SIGTERM the server stops accepting, the requests in
	// flight finish, and streams end: their contexts come from base,
	// which Shutdown cancels (a WebSocket's connection is no longer the
	// server's to wait for).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	base, cancelBase := context.WithCancel(context.Background())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: responseWriteTimeout,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10,
		BaseContext: func(net.Listener) context.Context { return base }}
	srv.RegisterOnShutdown(cancelBase)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	scheme := "http"
	if *useTLS {
		host, _, _ := net.SplitHostPort(*addr)
		cert, fingerprint, err := selfSigned(host)
		if err != nil {
			log.Fatal(err)
		}
		// The page comes over HTTP/2. Started with GODEBUG=http2xconnect=1,
		// net/http offers RFC 8441's Extended CONNECT and browsers open the
		// chat's WebSocket as a stream of the page's own connection,
		// which wsdeflate.Accept answers; without it they open an HTTP/1.1
		// connection for it. The page says which.
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		scheme = "https"
		fmt.Printf("self-signed certificate, SHA-256 fingerprint %s\n", fingerprint)
	}
	fmt.Printf("squeeze demo on %s://%s/\n", scheme, ln.Addr())
	fmt.Println("  /             this page: chart of bytes and time per coding, SSE and chat")
	fmt.Println("  /api/items    a JSON API response, through encoding")
	fmt.Println("  /events       server-sent events, compressed and streamed")
	fmt.Println("  /ws           WebSocket chat with permessage-deflate (context takeover)")
	fmt.Println("  /stats        what the middleware did, per coding (OnResponse)")
	if *rootDir != "" {
		fmt.Printf("  /static/...   the files of %s through precompressed.FileServer\n", *rootDir)
	} else {
		fmt.Println("  /static/app.js, /static/style.css   the page's files, precompressed sidecars through precompressed.FileServer")
	}
	served := make(chan error, 1)
	go func() {
		if *useTLS {
			served <- srv.ServeTLS(ln, "", "")
		} else {
			served <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-served:
		log.Fatal(err)
	case <-ctx.Done():
	}
	stop() // a second signal ends the process at once
	fmt.Println("shutting down: finishing the requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Fatal(err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	fmt.Println("stopped")
}
