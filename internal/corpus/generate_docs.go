package corpus

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// apiDocument is one nested API document, indented as APIs that
// pretty-print send it: a product with variants, prices per currency,
// stock per warehouse, media and links, a few levels deep, with optional
// parts present or not per product.
func apiDocuments(r *rand.Rand) []byte {
	type (
		money struct {
			Amount   string `json:"amount"`
			Currency string `json:"currency"`
		}
		stock struct {
			Warehouse string `json:"warehouse"`
			Available int    `json:"available"`
			Reserved  int    `json:"reserved,omitempty"`
		}
		variant struct {
			SKU        string            `json:"sku"`
			Attributes map[string]string `json:"attributes"`
			Prices     []money           `json:"prices"`
			Stock      []stock           `json:"stock"`
			Weight     *float64          `json:"weight_kg,omitempty"`
		}
		product struct {
			ID          string            `json:"id"`
			Type        string            `json:"type"`
			Title       string            `json:"title"`
			Slug        string            `json:"slug"`
			Description string            `json:"description,omitempty"`
			Tags        []string          `json:"tags"`
			Vendor      map[string]any    `json:"vendor"`
			Variants    []variant         `json:"variants"`
			Media       []map[string]any  `json:"media,omitempty"`
			Links       map[string]string `json:"links"`
			CreatedAt   string            `json:"created_at"`
		}
	)
	colours := []string{"black", "white", "navy", "forest", "sand", "rust", "slate"}
	sizes := []string{"XS", "S", "M", "L", "XL"}
	nouns := []string{"jacket", "backpack", "bottle", "lamp", "chair", "kettle", "notebook", "scarf", "tent", "mug"}
	adjectives := []string{"waterproof", "insulated", "foldable", "recycled", "lightweight", "handmade", "classic"}
	warehouses := []string{"lis-1", "ber-2", "par-1", "ams-3"}
	var all []product
	t := epoch
	for size := 0; size < generatedSize+4096; size += 1400 {
		id := fmt.Sprintf("prod_%08x", r.Uint32())
		adj, noun := pick(r, adjectives), pick(r, nouns)
		title := strings.ToUpper(adj[:1]) + adj[1:] + " " + noun
		slug := adj + "-" + noun + "-" + id[5:9]
		p := product{ID: id, Type: "product", Title: title, Slug: slug, Tags: []string{adj, noun},
			Vendor:    map[string]any{"id": 300 + r.IntN(40), "name": pick(r, lastNames) + " & Co", "verified": r.IntN(3) > 0},
			Links:     map[string]string{"self": "/api/v2/products/" + id, "html": "https://shop.example.com/p/" + slug},
			CreatedAt: stamp(r, &t)}
		if r.IntN(2) == 0 {
			p.Description = fmt.Sprintf("A %s %s, %s.", adj, noun, strings.Join([]string{pick(r, words), pick(r, words), pick(r, words)}, " "))
		}
		for v := range 1 + r.IntN(4) {
			vr := variant{SKU: fmt.Sprintf("%s-%s-%s", strings.ToUpper(noun[:3]), strings.ToUpper(pick(r, colours)[:2]), pick(r, sizes)),
				Attributes: map[string]string{"colour": pick(r, colours), "size": pick(r, sizes)}}
			base := 10 + r.IntN(300)
			for _, c := range currencies[:2+r.IntN(3)] {
				vr.Prices = append(vr.Prices, money{fmt.Sprintf("%d.%02d", base+v, 49+50*r.IntN(2)), c})
			}
			for _, w := range warehouses[:1+r.IntN(len(warehouses))] {
				vr.Stock = append(vr.Stock, stock{w, r.IntN(500), r.IntN(3) * r.IntN(20)})
			}
			if r.IntN(2) == 0 {
				w := math.Round(r.Float64()*5000) / 1000
				vr.Weight = &w
			}
			p.Variants = append(p.Variants, vr)
		}
		for m := range r.IntN(3) {
			p.Media = append(p.Media, map[string]any{"kind": "image", "url": fmt.Sprintf("https://cdn.example.com/%s/%d.jpg", id, m),
				"width": 800 + 400*r.IntN(3), "height": 600 + 300*r.IntN(3), "alt": title})
		}
		all = append(all, p)
	}
	b, _ := json.MarshalIndent(map[string]any{"data": all, "meta": map[string]any{"page": 1, "per_page": len(all), "total": 4120}}, "", "  ")
	return b
}

// config is configuration as JSON: a service's settings with nested
// sections, feature flags, routes and lists of rules, indented with tabs
// by hand as people write it, keys repeating from section to section.
func config(r *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString("{\n\t\"$schema\": \"https://config.example.com/schema/v3.json\",\n\t\"version\": 3,\n")
	services := []string{"gateway", "orders", "billing", "search", "media", "notifications", "accounts", "inventory"}
	regions := []string{"eu-west-1", "eu-central-1", "us-east-1", "ap-southeast-2"}
	b.WriteString("\t\"services\": {\n")
	for i := 0; b.Len() < generatedSize; i++ {
		name := fmt.Sprintf("%s-%d", pick(r, services), i)
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "\t\t%q: {\n\t\t\t\"enabled\": %t,\n\t\t\t\"replicas\": %d,\n\t\t\t\"region\": %q,\n", name, r.IntN(5) > 0, 1+r.IntN(6), pick(r, regions))
		fmt.Fprintf(&b, "\t\t\t\"resources\": {\n\t\t\t\t\"cpu\": \"%dm\",\n\t\t\t\t\"memory\": \"%dMi\"\n\t\t\t},\n", 250*(1+r.IntN(8)), 128<<r.IntN(4))
		fmt.Fprintf(&b, "\t\t\t\"http\": {\n\t\t\t\t\"port\": %d,\n\t\t\t\t\"timeout\": \"%ds\",\n\t\t\t\t\"max_body\": \"%dMiB\",\n\t\t\t\t\"cors\": {\n\t\t\t\t\t\"allow_origins\": [\"https://app.example.com\", \"https://admin.example.com\"],\n\t\t\t\t\t\"allow_credentials\": %t\n\t\t\t\t}\n\t\t\t},\n",
			8000+r.IntN(100), 5*(1+r.IntN(12)), 1<<r.IntN(6), r.IntN(2) == 0)
		b.WriteString("\t\t\t\"routes\": [\n")
		for k := range 1 + r.IntN(4) {
			if k > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "\t\t\t\t{ \"path\": \"%s/%s\", \"methods\": [\"GET\"%s], \"auth\": %q, \"rate_limit\": { \"requests\": %d, \"per\": \"1m\" } }",
				pick(r, paths), pick(r, []string{"{id}", "search", "export", "batch", "{id}/events"}),
				pick(r, []string{"", ", \"POST\"", ", \"PUT\", \"DELETE\""}), pick(r, []string{"none", "session", "token", "mtls"}), 60*(1+r.IntN(20)))
		}
		b.WriteString("\n\t\t\t],\n\t\t\t\"features\": {\n")
		for k, f := range []string{"new_checkout", "dark_mode", "beta_search", "audit_log", "edge_cache"} {
			if k > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "\t\t\t\t%q: { \"enabled\": %t, \"rollout\": %d }", f, r.IntN(2) == 0, 10*r.IntN(11))
		}
		fmt.Fprintf(&b, "\n\t\t\t},\n\t\t\t\"log\": { \"level\": %q, \"format\": \"json\", \"sample\": %.2f }\n\t\t}",
			pick(r, []string{"debug", "info", "warn"}), r.Float64())
	}
	b.WriteString("\n\t}\n}\n")
	return []byte(b.String())
}

// matrix is numeric JSON of another shape than series: rows of
// full-precision floats (embeddings, as a vector search API returns them)
// and of small integers (a confusion matrix), with few keys between them.
func matrix(r *rand.Rand) []byte {
	b := []byte(`{"model":"text-embed-small","dimensions":48,"data":[`)
	for i := 0; len(b) < generatedSize; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"index":%d,"score":%.6f,"embedding":[`, i, 1-float64(i)*0.013-r.Float64()*0.01)
		for k := range 48 {
			if k > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, "%.8f", r.NormFloat64()*0.08)
		}
		b = append(b, `],"counts":[`...)
		for k := range 12 {
			if k > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, "%d", r.IntN(40)*r.IntN(3))
		}
		b = append(b, "]}"...)
	}
	return append(b, `],"usage":{"prompt_tokens":812,"total_tokens":812}}`...)
}
