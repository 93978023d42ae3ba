package encoding_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
)

// Send klauspost/compress's exact bytes for every body: gzip at level 5
// without squeeze's own encoder on small bodies.
func ExampleLibraryEncoders() {
	mw, err := encoding.New(encoding.Config{Codings: []encoding.Coding{
		{Codec: encoding.LibraryEncoders(encoding.Gzip()), Level: 5},
	}})
	if err != nil {
		panic(err)
	}
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "["+strings.Repeat(`{"id":1,"status":"paid"},`, 80)+`{"id":2}]`)
	}))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Header().Get("Content-Encoding"))
	// Output: gzip
}
