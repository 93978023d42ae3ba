package precompressed_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/precompressed"
)

// A site with app.js and the gzip sidecar a build step wrote beside it. A
// client accepting gzip gets the sidecar, one that does not gets the
// original, and both responses say they vary with Accept-Encoding.
func ExampleFileServer() {
	js := []byte(strings.Repeat("console.log('hi');\n", 100))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(js)
	zw.Close()
	site := fstest.MapFS{
		"app.js":    {Data: js},
		"app.js.gz": {Data: gz.Bytes()},
	}
	h := precompressed.FileServer(site, precompressed.Config{})

	for _, accept := range []string{"gzip, br", ""} {
		r := httptest.NewRequest("GET", "/app.js", nil)
		r.Header.Set("Accept-Encoding", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("Accept-Encoding %q: %d, Content-Encoding %q, Content-Type %s, Vary %s, sidecar bytes: %t\n",
			accept, w.Code, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Type"),
			w.Header().Get("Vary"), bytes.Equal(w.Body.Bytes(), gz.Bytes()))
	}
	// Output:
	// Accept-Encoding "gzip, br": 200, Content-Encoding "gzip", Content-Type text/javascript; charset=utf-8, Vary Accept-Encoding, sidecar bytes: true
	// Accept-Encoding "": 200, Content-Encoding "", Content-Type text/javascript; charset=utf-8, Vary Accept-Encoding, sidecar bytes: false
}

// Serving an operating-system directory under /static/, confined with
// os.Root so that no symbolic link inside it leads out.
func ExampleFileServerRoot() {
	root, err := os.OpenRoot("public")
	if err != nil {
		log.Fatal(err)
	}
	defer root.Close()
	http.Handle("/static/", http.StripPrefix("/static", precompressed.FileServerRoot(root, precompressed.Config{})))
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", nil))
}
