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

// A route dictionary for a JSON API: built from responses of the route the
// application renders itself, announced because it pays, served at its
// path and linked from the page that calls the API.
func ExampleRoute() {
	var samples [][]byte
	for page := range 20 {
		var b []byte
		b = fmt.Appendf(b, `{"page":%d,"orders":[`, page)
		for i := range 6 {
			b = fmt.Appendf(b, `{"id":"ord_%d_%d","customer":{"name":%q,"email":%q,"tier":%q},`+
				`"status":%q,"shipping":{"method":%q,"carrier":%q},"currency":"EUR","total":%d.%02d},`,
				page, i, []string{"Ada Lovelace", "Grace Hopper", "Alan Turing"}[(page+i)%3],
				[]string{"ada@example.org", "grace@example.org", "alan@example.org"}[(page+i)%3],
				[]string{"gold", "silver"}[i%2], []string{"paid", "shipped", "pending"}[(page*7+i)%3],
				[]string{"standard", "express"}[(page+i)%2], []string{"DHL Express", "La Poste Colissimo"}[i%2],
				(page*31+i*17)%500, (page+i)%100)
		}
		samples = append(samples, append(b[:len(b)-1], "]}"...))
	}
	store := dictionary.NewStore(0)
	route, err := dictionary.NewRoute(dictionary.RouteConfig{Match: "/api/*", Path: "/dictionaries/api", Store: store})
	if err != nil {
		panic(err)
	}
	gain, _ := route.Build(samples)
	fmt.Println("announced:", gain.Announced, gain.Ratio >= dictionary.DefaultMinGain)

	page := http.Header{}
	route.Link(page)
	fmt.Println(page.Get("Link"))

	w := httptest.NewRecorder()
	route.ServeHTTP(w, httptest.NewRequest("GET", "/dictionaries/api", nil))
	fmt.Println(w.Code, w.Header().Get("Cache-Control"))
	// Output:
	// announced: true true
	// </dictionaries/api>; rel="compression-dictionary"
	// 200 public, max-age=86400
}
