// Command server is the squeeze demo: a small site, a JSON API and a
// server-sent events stream, all compressed by the encoding middleware.
//
//	go run ./examples/server            # then open http://127.0.0.1:8080/
//	go run ./examples/server -addr :9000
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()

	h, err := newHandler()
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("squeeze demo on http://%s/\n", *addr)
	fmt.Println("  /             this page, with the coding your browser negotiated")
	fmt.Println("  /api/items    a JSON API response")
	fmt.Println("  /events       server-sent events, compressed and streamed")
	fmt.Println("  /stats        what the middleware did, per coding")
	log.Fatal(srv.ListenAndServe())
}
