// Command negotiate uses the negotiate package alone, without the
// middleware: a handler that keeps its own encoded variants of one
// representation, made once at start-up, and picks one per request.
package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"log"
	"net/http"
	"strconv"
	"strings"

	"github.com/squeezehttp/squeeze/negotiate"
)

// variants holds one document in every coding the handler can send.
type variants map[string][]byte // coding ("" for identity) -> body

func newVariants(doc []byte) variants {
	var gz, zl bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // valid level: no error
	zw.Write(doc)
	zw.Close()
	// RFC 9110 §8.4.1.2: "deflate" is the zlib format, not raw DEFLATE.
	fw, _ := zlib.NewWriterLevel(&zl, zlib.BestCompression)
	fw.Write(doc)
	fw.Close()
	return variants{"": doc, "gzip": gz.Bytes(), "deflate": zl.Bytes()}
}

// newHandler serves doc from the variants, chosen by Accept-Encoding.
func newHandler(doc []byte) http.Handler {
	v := newVariants(doc)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// RFC 9110 §12.5.5: the answer depends on Accept-Encoding whatever
		// it is, so every response says so, identity ones too.
		negotiate.AddVary(w.Header(), "Accept-Encoding")
		coding, ok := negotiate.Select(r.Header, "gzip", "deflate")
		if !ok {
			// The client refused identity and all we have: RFC 9110
			// §12.5.3 lets us send identity anyway; this handler says no.
			w.Header().Set("Accept-Encoding", "gzip, deflate")
			http.Error(w, "no acceptable content coding", http.StatusNotAcceptable)
			return
		}
		body := v[coding]
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if coding != "" {
			w.Header().Set("Content-Encoding", coding)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
}

func main() {
	doc := []byte(strings.Repeat("the same representation, negotiated\n", 100))
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", newHandler(doc)))
}
