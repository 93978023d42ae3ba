// Command websocket is an echo server and its client, both on
// wsdeflate: permessage-deflate with context takeover, so repeated JSON
// shrinks to a few bytes a message.
//
//	go run ./examples/websocket                 # the server
//	go run ./examples/websocket -client hello   # sends "hello", prints the echo
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/squeezehttp/squeeze/wsdeflate"
)

// newHandler echoes every message at /echo until the client closes.
func newHandler() http.Handler {
	mux := http.NewServeMux()
	// "/echo", not "GET /echo": over HTTP/2 a WebSocket arrives as an
	// Extended CONNECT (RFC 8441), which a GET pattern answers with 405.
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		// nil options: same-origin browsers only, permessage-deflate with
		// context takeover both ways and 32 KiB windows.
		c, err := wsdeflate.Accept(w, r, nil)
		if err != nil {
			return // Accept has answered with an error status.
		}
		defer c.Close(wsdeflate.StatusNormalClosure, "")
		for {
			typ, msg, err := c.Read(r.Context())
			if err != nil {
				return // closed by the client, or broken
			}
			if err := c.Write(r.Context(), typ, msg); err != nil {
				return
			}
		}
	})
	return mux
}

// echo dials url, sends each message and returns the replies, and the
// extension the server agreed to.
func echo(ctx context.Context, url string, msgs ...string) (replies []string, ext string, err error) {
	c, _, err := wsdeflate.Dial(ctx, url, nil)
	if err != nil {
		return nil, "", err
	}
	defer c.Close(wsdeflate.StatusNormalClosure, "bye")
	for _, m := range msgs {
		if err := c.Write(ctx, wsdeflate.MessageText, []byte(m)); err != nil {
			return nil, "", err
		}
		_, reply, err := c.Read(ctx)
		if err != nil {
			return nil, "", err
		}
		replies = append(replies, string(reply))
	}
	return replies, c.Extensions(), nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on, or of the server with -client")
	client := flag.Bool("client", false, "send the arguments to the server and print the echoes")
	flag.Parse()
	if !*client {
		log.Fatal(http.ListenAndServe(*addr, newHandler()))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	replies, ext, err := echo(ctx, "ws://"+*addr+"/echo", flag.Args()...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("extension:", ext)
	for _, r := range replies {
		fmt.Println(r)
	}
}
