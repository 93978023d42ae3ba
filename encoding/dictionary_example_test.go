package encoding_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/squeezehttp/squeeze/encoding"
)

// A versioned script is marked as a dictionary for the builds after it:
// Use-As-Dictionary names the URLs it is for, and a Cache-Control keeps it
// fresh, which a browser requires before using it.
func ExampleSetUseAsDictionary() {
	h := http.Header{}
	err := encoding.SetUseAsDictionary(h, encoding.UseAsDictionary{
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
func ExampleConfig_dictionaries() {
	previous := []byte("console.log('build 1'); // " + fmt.Sprint(make([]int, 1000)))
	current := []byte("console.log('build 2'); // " + fmt.Sprint(make([]int, 1000)))
	store := encoding.NewDictionaryStore(0)
	dict, _ := store.Add(previous)
	mw, _ := encoding.New(encoding.Config{Dictionaries: store})
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "max-age=3600") // public: may mix with a dictionary
		w.Write(current)
	}))

	hash := dict.Hash()
	r := httptest.NewRequest("GET", "http://localhost/app/v2/main.js", nil)
	r.Header.Set("Accept-Encoding", "gzip, br, zstd, dcb, dcz")
	r.Header.Set("Available-Dictionary", fmt.Sprintf(":%s:", base64Std(hash[:])))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	body, _ := encoding.DecodeDCZ(w.Body.Bytes(), dict, 1<<20)
	fmt.Println(string(body) == string(current), w.Body.Len() < len(current)/4)
	// Output:
	// dcz Accept-Encoding, Available-Dictionary
	// true true
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
