// Command routers serves the same small API through net/http's ServeMux,
// chi, echo or gin, each with the compression middleware added the way that
// router takes it:
//
//	net/http: http.ListenAndServe(addr, encoding.Handler(mux))
//	chi:      r.Use(encoding.Handler)       // before the routes
//	echo:     http.ListenAndServe(addr, encoding.Handler(e))
//	gin:      http.ListenAndServe(addr, encoding.Handler(r))
//
// echo and gin take no func(http.Handler) http.Handler middleware of their
// own, so the router as a whole is wrapped: that also covers the responses
// the router writes itself (404, 405, echo's HTTPErrorHandler). With echo,
// e.Use(echo.WrapMiddleware(encoding.Handler)) is wrong: echo runs its
// error handler after the middleware chain has returned, when the
// compressing writer is closed, and every error becomes an empty 200.
//
// It is its own module so that the main module stays free of routers.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
)

// routers builds each router's handler, by the name -router takes.
var routers = map[string]func() http.Handler{
	"mux":  muxHandler,
	"chi":  chiHandler,
	"echo": echoHandler,
	"gin":  ginHandler,
}

// Routes every router serves: itemsPath a JSON list with a strong ETag,
// and missingItemPath a JSON error of the router's own making.
const (
	itemsPath       = "/api/items"
	missingItemPath = "/api/items/missing"
	itemsETag       = `"items-v1"`
)

// itemsJSON is the body of itemsPath: large enough to be compressed.
var itemsJSON = func() string {
	var b strings.Builder
	b.WriteString("[")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","tags":["compressed","routed"]}`, i, i)
	}
	b.WriteString("]\n")
	return b.String()
}()

// notFoundMessage is the error at missingItemPath, sent as
// {"message":...} (echo's form): long enough to be compressed too, so that
// the tests see the error go through the middleware.
var notFoundMessage = "no such item: " + strings.Repeat("the item asked for does not exist; ", 40)

// notFoundJSON is notFoundMessage as JSON.
var notFoundJSON = `{"message":"` + notFoundMessage + `"}` + "\n"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	router := flag.String("router", "mux", "mux, chi, echo or gin")
	flag.Parse()
	newHandler, ok := routers[*router]
	if !ok {
		fmt.Fprintf(os.Stderr, "routers: unknown -router %q: want mux, chi, echo or gin\n", *router)
		os.Exit(2)
	}
	log.Printf("serving %s through %s on http://%s", itemsPath, *router, *addr)
	log.Fatal(http.ListenAndServe(*addr, newHandler()))
}
