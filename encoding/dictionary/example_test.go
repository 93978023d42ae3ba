package dictionary_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/encoding/dictionary"
	"github.com/squeezehttp/squeeze/internal/dcztest"
)

// A versioned script is marked as a dictionary for the builds after it:
// Use-As-Dictionary names the URLs it is for, and a Cache-Control keeps it
// fresh, which a browser requires before using it.
func ExampleSetUseAs() {
	h := http.Header{}
	err := dictionary.SetUseAs(h, dictionary.UseAs{
		Match:     "/app/*/main.js",
		MatchDest: []string{"script"},
	})
	fmt.Println(err)
	fmt.Println(h.Get("Use-As-Dictionary"))
	fmt.Println(h.Get("Cache-Control"))
	// Output:
	// <nil>
	// match="/app/*/main.js", match-dest=("script")
	// max-age=31536000
}

// The middleware answers dcz to a client that has the previous build, named
// by its SHA-256 in Available-Dictionary, and lists dcz in Accept-Encoding.
func ExampleServer() {
	previous := []byte("console.log('build 1'); // " + fmt.Sprint(make([]int, 1000)))
	current := []byte("console.log('build 2'); // " + fmt.Sprint(make([]int, 1000)))
	store := dictionary.NewStore(0)
	dict, _ := store.Add(previous) // such as os.ReadFile of the previous build
	dicts, _ := dictionary.NewServer(dictionary.Config{Store: store})
	mw, _ := encoding.New(encoding.Config{Dictionaries: dicts})
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "max-age=3600") // public: may mix with a dictionary
		w.Write(current)
	}))

	hash := dict.Hash()
	r := httptest.NewRequest("GET", "http://localhost/app/v2/main.js", nil)
	r.Header.Set("Accept-Encoding", "gzip, br, zstd, dcb, dcz")
	r.Header.Set("Available-Dictionary", fmt.Sprintf(":%s:", base64.StdEncoding.EncodeToString(hash[:])))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	body, _ := dcztest.Decode(w.Body.Bytes(), previous, 1<<20)
	fmt.Println(string(body) == string(current), w.Body.Len() < len(current)/4)
	// Output:
	// dcz Accept-Encoding, Available-Dictionary
	// true true
}
