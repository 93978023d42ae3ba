package corpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// generatedSize is about how long each generated source is: room for two
// 8 KiB cuts.
const generatedSize = 24 << 10

// Generated returns the corpus's synthetic JSON, the same bytes on every
// run: API replies of shapes no npm package ships (arrays of flat records,
// compact and indented; a GraphQL reply; GeoJSON; structured log lines;
// numeric series and embeddings; nested API documents; configuration; an
// i18n message catalogue) and running text in eight languages.
func Generated() []Source {
	return []Source{
		{"json-records", "orders.json", records(rand.New(rand.NewPCG(1, 1)))},
		{"json-records", "users-indented.json", users(rand.New(rand.NewPCG(2, 2)))},
		{"json-graphql", "issues.json", graphql(rand.New(rand.NewPCG(3, 3)))},
		{"geojson", "places.geojson", geojson(rand.New(rand.NewPCG(4, 4)))},
		{"json-logs", "requests.ndjson", logLines(rand.New(rand.NewPCG(5, 5)))},
		{"json-numbers", "series.json", series(rand.New(rand.NewPCG(6, 6)))},
		{"json-api", "products.json", apiDocuments(rand.New(rand.NewPCG(7, 7)))},
		{"json-config", "services.json", config(rand.New(rand.NewPCG(8, 8)))},
		{"json-numbers", "embeddings.json", matrix(rand.New(rand.NewPCG(9, 9)))},
		{"json-i18n", "messages.json", messages(rand.New(rand.NewPCG(10, 10)))},
		{"text-i18n", "help.md", article(rand.New(rand.NewPCG(11, 11)))},
	}
}

var (
	firstNames = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Dennis", "Radia", "John", "Sophie", "Linus", "Hedy", "Tim", "Karen", "Niklaus", "Shafi", "Leslie"}
	lastNames  = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton", "Ritchie", "Perlman", "McCarthy", "Wilson", "Torvalds", "Lamarr", "Berners-Lee", "Spärck Jones", "Wirth", "Goldwasser", "Lamport"}
	statuses   = []string{"pending", "paid", "shipped", "delivered", "refunded", "cancelled"}
	currencies = []string{"EUR", "USD", "GBP", "CHF"}
	cities     = []string{"Lisbon", "Porto", "Madrid", "Berlin", "Paris", "Lyon", "Zürich", "Vienna", "Prague", "Oslo"}
	paths      = []string{"/api/v1/orders", "/api/v1/users", "/api/v1/products", "/healthz", "/api/v1/search", "/static/app.js"}
	words      = strings.Fields("the request failed because the upstream timed out while the cache was warming and a retry was scheduled for the next window of the batch import job that syncs invoices customers and shipments")
)

// epoch is where generated timestamps start.
var epoch = time.Date(2024, 3, 5, 9, 0, 0, 0, time.UTC)

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func stamp(r *rand.Rand, t *time.Time) string {
	*t = t.Add(time.Duration(r.IntN(90_000)) * time.Millisecond)
	return t.Format(time.RFC3339)
}

// records is an array of orders, the commonest small API reply: ids,
// names, amounts, statuses, timestamps.
func records(r *rand.Rand) []byte {
	b := []byte("[")
	t := epoch
	for id := 100234; len(b) < generatedSize; id += 1 + r.IntN(3) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		first, last := pick(r, firstNames), pick(r, lastNames)
		b = fmt.Appendf(b, `{"id":%d,"customer":{"id":%d,"name":%q},"email":"%s.%s@example.com","amount":"%d.%02d","currency":%q,"status":%q,"items":%d,"created_at":%q,"paid":%t}`,
			id, 5000+r.IntN(900), first+" "+last, strings.ToLower(first), strings.ToLower(strings.ReplaceAll(last, " ", "")),
			r.IntN(2000), r.IntN(100), pick(r, currencies), pick(r, statuses), 1+r.IntN(9), stamp(r, &t), r.IntN(4) != 0)
	}
	return append(b, ']')
}

// users is an indented array of user records, as APIs that pretty-print
// send it.
func users(r *rand.Rand) []byte {
	type user struct {
		ID        int      `json:"id"`
		Username  string   `json:"username"`
		Name      string   `json:"name"`
		City      string   `json:"city"`
		Verified  bool     `json:"verified"`
		Followers int      `json:"followers"`
		Roles     []string `json:"roles"`
		LastSeen  string   `json:"last_seen"`
	}
	var all []user
	t := epoch
	for size := 0; size < generatedSize+2048; size += 230 {
		first, last := pick(r, firstNames), pick(r, lastNames)
		roles := []string{"member"}
		if r.IntN(5) == 0 {
			roles = append(roles, "admin")
		}
		all = append(all, user{ID: 1 + len(all), Username: strings.ToLower(first[:1] + strings.ReplaceAll(last, " ", "")),
			Name: first + " " + last, City: pick(r, cities), Verified: r.IntN(3) > 0, Followers: r.IntN(20000),
			Roles: roles, LastSeen: stamp(r, &t)})
	}
	b, _ := json.MarshalIndent(all, "", "  ")
	return b
}

// graphql is a GraphQL reply: data nested under the query's fields, edges
// and nodes, opaque ids.
func graphql(r *rand.Rand) []byte {
	b := []byte(`{"data":{"repository":{"name":"squeeze","issues":{"totalCount":1843,"edges":[`)
	t := epoch
	for n := 1200; len(b) < generatedSize; n++ {
		if n > 1200 {
			b = append(b, ',')
		}
		title := strings.Join([]string{pick(r, words), pick(r, words), pick(r, words), pick(r, words)}, " ")
		b = fmt.Appendf(b, `{"cursor":"Y3Vyc29yOnYyOpHO%08d","node":{"__typename":"Issue","id":"I_kwDOA%06x","number":%d,"title":%q,"state":%q,"author":{"login":%q,"avatarUrl":"https://avatars.example.com/u/%d?v=4"},"labels":{"nodes":[{"name":%q,"color":"d73a4a"}]},"comments":{"totalCount":%d},"createdAt":%q}}`,
			r.IntN(1e8), r.IntN(1<<24), n, title, pick(r, []string{"OPEN", "CLOSED"}), strings.ToLower(pick(r, firstNames)),
			r.IntN(1e7), pick(r, []string{"bug", "enhancement", "documentation", "question"}), r.IntN(40), stamp(r, &t))
	}
	return append(b, `],"pageInfo":{"hasNextPage":true,"endCursor":"Y3Vyc29yOnYyOpHOAAA"}}}}}`...)
}

// geojson is a FeatureCollection of points and small polygons with
// properties.
func geojson(r *rand.Rand) []byte {
	b := []byte(`{"type":"FeatureCollection","features":[`)
	for i := 0; len(b) < generatedSize; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		lon, lat := -9.2+r.Float64()*20, 38.5+r.Float64()*20
		b = fmt.Appendf(b, `{"type":"Feature","id":%d,"properties":{"name":"%s %d","city":%q,"population":%d},"geometry":`,
			i, pick(r, cities), i, pick(r, cities), r.IntN(500000))
		if i%3 != 2 {
			b = fmt.Appendf(b, `{"type":"Point","coordinates":[%.6f,%.6f]}}`, lon, lat)
			continue
		}
		b = append(b, `{"type":"Polygon","coordinates":[[`...)
		for k := range 6 {
			b = fmt.Appendf(b, `[%.6f,%.6f],`, lon+0.01*float64(k%3)+r.Float64()*0.001, lat+0.01*float64(k/3)+r.Float64()*0.001)
		}
		b = fmt.Appendf(b, `[%.6f,%.6f]]]}}`, lon, lat)
	}
	return append(b, "]}"...)
}

// logLines are structured request logs, one JSON object a line.
func logLines(r *rand.Rand) []byte {
	var b []byte
	t := epoch
	for len(b) < generatedSize {
		status := pick(r, []int{200, 200, 200, 201, 204, 304, 404, 500})
		level := "info"
		if status >= 500 {
			level = "error"
		}
		b = fmt.Appendf(b, `{"time":"%s","level":%q,"msg":"request served","method":%q,"path":"%s/%d","status":%d,"duration_ms":%.3f,"bytes":%d,"request_id":"%016x","remote":"10.%d.%d.%d"}`+"\n",
			t.Add(time.Duration(r.IntN(1e9))).Format(time.RFC3339Nano), level, pick(r, []string{"GET", "GET", "POST", "PUT"}),
			pick(r, paths), r.IntN(100000), status, r.Float64()*250, r.IntN(60000), r.Uint64(), r.IntN(256), r.IntN(256), r.IntN(256))
		t = t.Add(time.Duration(r.IntN(2000)) * time.Millisecond)
	}
	return b
}

// series are metrics as [timestamp, value] pairs and plain arrays of
// numbers, as a dashboard API sends them.
func series(r *rand.Rand) []byte {
	b := []byte(`{"series":[`)
	for m := 0; len(b) < generatedSize; m++ {
		if m > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"metric":"%s","unit":"%s","points":[`, pick(r, []string{"cpu.usage", "mem.rss", "http.latency.p99", "queue.depth"}), pick(r, []string{"ratio", "bytes", "ms", "count"}))
		ts, v := 1709629200+m*7, 50+r.Float64()*50
		for k := range 120 {
			if k > 0 {
				b = append(b, ',')
			}
			v += r.NormFloat64() * 2
			b = fmt.Appendf(b, "[%d,%.4g]", ts+k*15, v)
		}
		b = append(b, `],"histogram":[`...)
		for k := range 40 {
			if k > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, "%d", r.IntN(5000))
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}"...)
}
