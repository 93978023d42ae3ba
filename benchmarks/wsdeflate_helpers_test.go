package benchmarks

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// wsdeflateSizes are the message sizes of the published permessage-deflate
// round-trip table.
var wsdeflateSizes = []int{1 << 10, 4 << 10, 16 << 10, 64 << 10}

var (
	firstNames = []string{"Alice", "Bob", "Chen", "Dana", "Emeka", "Fatima", "Giulia", "Hiro", "Ines", "Jonas", "Kofi", "Lena"}
	lastNames  = []string{"Jackson", "Nguyen", "Schmidt", "Okafor", "Rossi", "Tanaka", "Silva", "Kowalski", "Haddad", "Murphy"}
	cities     = []string{"Dublin", "Lagos", "Osaka", "Lisbon", "Berlin", "Austin", "Pune", "Lyon", "Quito", "Perth"}
	roles      = []string{"owner", "admin", "member", "viewer"}
	statuses   = []string{"pending", "paid", "shipped", "delivered", "refunded"}
)

// wsdeflateJSON returns an API-style JSON message of about size bytes (the
// shape of a paginated API reply: users with addresses and orders),
// different for every seed, as consecutive messages of real traffic are.
func wsdeflateJSON(seed uint64, size int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var b strings.Builder
	fmt.Fprintf(&b, `{"page":%d,"per_page":%d,"total":%d,"data":[`, r.IntN(50)+1, r.IntN(20)+1, r.IntN(5000))
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		fmt.Fprintf(&b, `{"id":%d,"uuid":"%08x-%04x-4%03x-%04x-%012x","name":"%s %s","email":"%s.%s%d@example.com",`+
			`"role":"%s","active":%t,"score":%.2f,"created_at":"2024-%02d-%02dT%02d:%02d:%02dZ",`+
			`"address":{"street":"%d %s Street","city":"%s","zip":"%05d"},"orders":[`,
			r.IntN(1e6), r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<16), r.Uint64()&(1<<48-1),
			first, last, strings.ToLower(first), strings.ToLower(last), r.IntN(100),
			roles[r.IntN(len(roles))], r.IntN(2) == 0, r.Float64()*100,
			r.IntN(12)+1, r.IntN(28)+1, r.IntN(24), r.IntN(60), r.IntN(60),
			r.IntN(999)+1, lastNames[r.IntN(len(lastNames))], cities[r.IntN(len(cities))], r.IntN(100000))
		for j := range r.IntN(3) + 1 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"order_id":%d,"status":"%s","total":%.2f,"items":[{"sku":"SKU-%04d","qty":%d,"price":%.2f}]}`,
				r.IntN(1e6), statuses[r.IntN(len(statuses))], r.Float64()*500, r.IntN(10000), r.IntN(9)+1, r.Float64()*100)
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// wsdeflateMessages returns n varied messages of about size bytes.
func wsdeflateMessages(n, size int) [][]byte {
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = wsdeflateJSON(uint64(size)<<20+uint64(i), size)
	}
	return msgs
}

// wsdeflateRepeated returns one generated JSON message of size bytes, the
// same on every run: the repeated-message case of the tables.
func wsdeflateRepeated(size int) []byte { return wsdeflateJSON(1, size) }
