// Command reverseproxy compresses what an httputil.ReverseProxy returns.
// The client's Accept-Encoding goes to the backend unchanged, so a backend
// that compresses keeps doing it and the middleware leaves its
// Content-Encoding alone; so does a response marked Cache-Control:
// no-transform (RFC 9110 §7.7). Everything else is compressed here.
package main

import (
	"flag"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"

	"github.com/squeezehttp/squeeze/encoding"
)

// newHandler proxies every request to backend, compressing the answers.
func newHandler(backend *url.URL) http.Handler {
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(backend)
			pr.SetXForwarded()
		},
		// Stream as the backend sends (server-sent events, long polls);
		// the middleware flushes through its encoder.
		FlushInterval: -1,
	}
	return encoding.Handler(proxy)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	backend := flag.String("backend", "http://127.0.0.1:9000", "URL of the server to proxy")
	flag.Parse()
	u, err := url.Parse(*backend)
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(*addr, newHandler(u)))
}
