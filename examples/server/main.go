// Command server is the squeeze demo: a small site, a JSON API and a
// server-sent events stream, all compressed by the encoding middleware.
//
//	go run ./examples/server            # then open http://127.0.0.1:8080/
//	go run ./examples/server -addr :9000
//	go run ./examples/server -root ./public   # your own files at /static/
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	rootDir := flag.String("root", "", "serve this directory at /static/ instead of the embedded files")
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
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("squeeze demo on http://%s/\n", *addr)
	fmt.Println("  /             this page, with the coding your browser negotiated")
	fmt.Println("  /api/items    a JSON API response")
	fmt.Println("  /events       server-sent events, compressed and streamed")
	fmt.Println("  /stats        what the middleware did, per coding")
	fmt.Println("  /static/      the page's script and style, through precompressed.FileServer")
	log.Fatal(srv.ListenAndServe())
}
