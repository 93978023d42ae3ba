// Command http2 runs WebSockets over HTTP/2 (RFC 8441) at both ends:
// wsdeflate.Accept answers an Extended CONNECT on net/http's HTTP/2 server,
// and wsdeflate.Dial sends one through golang.org/x/net/http2's Transport,
// given as DialOptions.HTTPClient, so that several WebSockets and ordinary
// requests share one TCP connection. permessage-deflate is negotiated as
// over HTTP/1.1.
//
// net/http's server advertises Extended CONNECT only when the process
// starts with GODEBUG=http2xconnect=1:
//
//	GODEBUG=http2xconnect=1 go run .
//
// Without it the server does not offer Extended CONNECT, x/net's Transport
// says so before sending anything, and Dial opens an HTTP/1.1 connection
// instead.
//
// It is its own module so that the main module stays free of
// golang.org/x/net.
package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/squeezehttp/squeeze/wsdeflate"
	"golang.org/x/net/http2"
)

// newHandler echoes every message of each WebSocket at /ws, telling the
// client which protocol carried it. The pattern is "/ws", not "GET /ws": a
// WebSocket over HTTP/2 arrives as a CONNECT.
func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := wsdeflate.Accept(w, r, nil)
		if err != nil {
			return // Accept has answered with an HTTP error
		}
		// Over HTTP/2 the stream ends when the handler returns: the
		// connection is used here, and closed before returning.
		defer c.Close(wsdeflate.StatusNormalClosure, "")
		ctx := r.Context()
		if err := c.Write(ctx, wsdeflate.MessageText, []byte(r.Proto+" "+r.Method)); err != nil {
			return
		}
		for {
			typ, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, msg); err != nil {
				return
			}
		}
	})
	return mux
}

// newClient returns an HTTP/2 client that can send an Extended CONNECT,
// trusting the roots in tlsConfig.
func newClient(tlsConfig *tls.Config) *http.Client {
	// x/net points at net/http's Transport, which cannot send :protocol
	// (it refuses the header as an invalid field name).
	//lint:ignore SA1019 the only Transport that sends an Extended CONNECT
	return &http.Client{Transport: &http2.Transport{TLSClientConfig: tlsConfig}}
}

func main() {
	srv := httptest.NewUnstartedServer(newHandler())
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	tlsConfig := srv.Client().Transport.(*http.Transport).TLSClientConfig

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := wsdeflate.Dial(ctx, "wss"+srv.URL[len("https"):]+"/ws", &wsdeflate.DialOptions{
		HTTPClient: newClient(tlsConfig),
		TLSConfig:  tlsConfig, // for the HTTP/1.1 fallback
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close(wsdeflate.StatusNormalClosure, "")
	_, proto, err := c.Read(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("WebSocket over %s, extensions %q\n", proto, c.Extensions())
	if err := c.Write(ctx, wsdeflate.MessageText, []byte("hello over one stream")); err != nil {
		log.Fatal(err)
	}
	_, echo, err := c.Read(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("echo: %s\n", echo)
}
