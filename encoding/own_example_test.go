package encoding_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
)

// Trade some bytes on some kinds of body for less CPU on small responses:
// squeeze's own encoders serve zstd at level 1 and gzip at level 5 for
// bodies of up to 4 KiB; larger bodies and streams are the library's.
func ExampleOwnSmallBodyEncoders() {
	mw, err := encoding.New(encoding.Config{Codings: []encoding.Coding{
		{Codec: encoding.OwnSmallBodyEncoders(encoding.Zstd()), Level: 1},
		{Codec: encoding.OwnSmallBodyEncoders(encoding.Gzip()), Level: 5},
	}})
	if err != nil {
		panic(err)
	}
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "["+strings.Repeat(`{"id":1,"status":"paid"},`, 80)+`{"id":2}]`)
	}))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept-Encoding", "gzip, zstd")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Header().Get("Content-Encoding"))
	// Output: zstd
}
