// Command apidict serves a page that calls a JSON API, with a dictionary
// for the API's responses (Compression Dictionary Transport, RFC 9842): the
// page's Link header points the browser at the dictionary, which it
// fetches at idle time, and every later call to /api/ names it in
// Available-Dictionary and gets its response as dcz, a fraction of br's
// size. The dictionary is built at start from fixtures, responses the
// application renders itself, and announced only if it pays.
//
//	go run ./examples/apidict    # then open http://localhost:8090/ in Chromium
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/encoding/dictionary"
)

func main() {
	addr := flag.String("addr", "localhost:8090", "listen address (dictionaries need a secure context: https, or localhost)")
	flag.Parse()
	h, route, err := newApp()
	if err != nil {
		log.Fatal(err)
	}
	if g, ok := route.Announced(); ok {
		log.Printf("dictionary for /api/*: %d bytes; on %d held-back responses dcz is %.2f× smaller than the better of br and zstd",
			g.Size, g.Samples, g.Ratio)
	} else {
		log.Printf("no dictionary announced: it would not pay on these responses")
	}
	log.Printf("listening on http://%s/", *addr)
	log.Fatal(http.ListenAndServe(*addr, h))
}

// newApp returns the service: the page, the API, the dictionary, all
// through encoding's middleware with the route's dictionary Store.
func newApp() (http.Handler, *dictionary.Route, error) {
	store := dictionary.NewStore(0)
	route, err := dictionary.NewRoute(dictionary.RouteConfig{Match: "/api/*", Path: "/dictionaries/api", Store: store})
	if err != nil {
		return nil, nil, err
	}
	// Fixtures: responses of the route, rendered as a request would render
	// them. They decide whether the dictionary is announced.
	var fixtures [][]byte
	for page := 1000; page < 1040; page++ {
		fixtures = append(fixtures, ordersPage(page))
	}
	if _, err := route.Build(fixtures); err != nil {
		return nil, nil, err
	}
	dicts, err := dictionary.NewServer(dictionary.Config{Store: store})
	if err != nil {
		return nil, nil, err
	}
	mw, err := encoding.New(encoding.Config{Dictionaries: dicts})
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /dictionaries/api", route)
	mux.Handle("GET /api/orders", route.Collect(http.HandlerFunc(orders)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		route.Link(w.Header())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte(page))
	})
	return mw.Handler(mux), route, nil
}

// orders answers /api/orders?page=N. Its responses are the same for every
// user, and say so (public), which is what lets a dictionary be used on
// them (dictionary.PublicResponse).
func orders(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 0 {
		http.Error(w, "page must be a number", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=60")
	w.Write(ordersPage(n))
}

type order struct {
	ID       string  `json:"id"`
	Customer string  `json:"customer"`
	Status   string  `json:"status"`
	Currency string  `json:"currency"`
	Total    float64 `json:"total"`
	Items    []item  `json:"items"`
	Shipping string  `json:"shipping_method"`
}

type item struct {
	SKU      string  `json:"sku"`
	Name     string  `json:"name"`
	Quantity int     `json:"quantity"`
	Price    float64 `json:"unit_price"`
}

// ordersPage renders page n of the order list, the same for the same n.
func ordersPage(n int) []byte {
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	customers := []string{"Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"}
	statuses := []string{"pending", "paid", "shipped", "delivered", "refunded"}
	products := []string{"USB-C cable", "Mechanical keyboard", "27-inch monitor", "Laptop stand", "Noise-cancelling headphones", "Webcam"}
	var page struct {
		Page   int     `json:"page"`
		Orders []order `json:"orders"`
	}
	page.Page = n
	for i := range 8 {
		o := order{
			ID:       fmt.Sprintf("ord_%d%03d", n, i),
			Customer: customers[rng.IntN(len(customers))],
			Status:   statuses[rng.IntN(len(statuses))],
			Currency: "EUR",
			Shipping: []string{"standard", "express"}[rng.IntN(2)],
		}
		for range 1 + rng.IntN(3) {
			p := rng.IntN(len(products))
			it := item{SKU: fmt.Sprintf("SKU-%04d", 100+p), Name: products[p], Quantity: 1 + rng.IntN(3), Price: float64(500+rng.IntN(20000)) / 100}
			o.Items = append(o.Items, it)
			o.Total += float64(it.Quantity) * it.Price
		}
		o.Total = float64(int(o.Total*100)) / 100
		page.Orders = append(page.Orders, o)
	}
	b, _ := json.MarshalIndent(page, "", "  ")
	return b
}

// page calls the API once a second and shows, for each response, the
// coding it came in and its size on the wire against its size decoded
// (Resource Timing). Once the browser has the dictionary, responses come
// as dcz.
const page = `<!doctype html>
<meta charset="utf-8">
<title>apidict</title>
<h1>A JSON API with a dictionary</h1>
<p>Each line is one call to <code>/api/orders</code>; after the browser has fetched
<code>/dictionaries/api</code> at idle time, calls go out with Available-Dictionary and come back as dcz.</p>
<pre id="log"></pre>
<script>
let page = 1;
async function call() {
  const url = "/api/orders?page=" + page++;
  const r = await fetch(url, {cache: "no-store"});
  const body = await r.json();
  const e = performance.getEntriesByName(new URL(url, location).href).pop();
  const line = (r.headers.get("content-encoding") || "identity") + " page=" + body.page +
    " transfer=" + e.transferSize + " encoded=" + e.encodedBodySize + " decoded=" + e.decodedBodySize;
  document.getElementById("log").textContent += line + "\n";
}
setInterval(call, 1000);
call();
</script>
`
