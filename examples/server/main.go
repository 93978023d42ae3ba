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
	"crypto/tls"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

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
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10}
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
		fmt.Printf("  /static/      %s through precompressed.FileServer\n", *rootDir)
	} else {
		fmt.Println("  /static/      the embedded site, precompressed sidecars through precompressed.FileServer")
	}
	if *useTLS {
		err = srv.ServeTLS(ln, "", "")
	} else {
		err = srv.Serve(ln)
	}
	log.Fatal(err)
}
