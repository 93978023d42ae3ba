package negotiate_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/squeezehttp/squeeze/negotiate"
)

// A handler that keeps its own pre-encoded variants picks one with Select and
// says on every response, encoded or not, that the choice depended on
// Accept-Encoding.
func Example() {
	variants := map[string]string{"br": "<brotli bytes>", "gzip": "<gzip bytes>", "": "plain text"}

	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		negotiate.AddVary(w.Header(), "Accept-Encoding")
		coding, ok := negotiate.Select(r.Header, "br", "gzip")
		if !ok {
			// The client refused identity too; sending it anyway is allowed
			// (RFC 9110 §12.5.3), and friendlier than 406.
			coding = ""
		}
		if coding != "" {
			w.Header().Set("Content-Encoding", coding)
		}
		fmt.Fprint(w, variants[coding])
	})

	for _, accept := range []string{"gzip, deflate, br, zstd", "gzip;q=1, br;q=0.5", "identity", ""} {
		r := httptest.NewRequest("GET", "/", nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("%-26q -> %-6q Vary: %s\n", accept, w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	}
	// Output:
	// "gzip, deflate, br, zstd"  -> "br"   Vary: Accept-Encoding
	// "gzip;q=1, br;q=0.5"       -> "gzip" Vary: Accept-Encoding
	// "identity"                 -> ""     Vary: Accept-Encoding
	// ""                         -> ""     Vary: Accept-Encoding
}

// Parse gives the weights themselves, for a handler that ranks more than
// codings, or logs what clients ask for.
func ExampleAccept_Quality() {
	a := negotiate.Parse([]string{"br;q=0.8, *;q=0.1", "identity;q=0"})
	for _, c := range []string{"br", "zstd", "dcz", "identity"} {
		fmt.Printf("%s=%d ", c, a.Quality(c))
	}
	fmt.Println()
	// Output: br=800 zstd=100 dcz=0 identity=0
}

func ExampleAddVary() {
	h := http.Header{"Vary": {"Origin"}}
	negotiate.AddVary(h, "accept-encoding", "Origin")
	negotiate.AddVary(h, "Accept-Encoding")
	fmt.Println(h["Vary"])
	// Output: [Origin, accept-encoding]
}
