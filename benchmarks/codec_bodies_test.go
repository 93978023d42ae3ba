package benchmarks

import (
	"fmt"
	"testing"
)

// smallBody is one small response body of the codec benchmarks.
type smallBody struct {
	name string
	data []byte
}

// smallBodies returns the 1 KB and 4 KB JSON replies and the first 1 KB
// and 4 KB of the corpus's bootstrap.min.css: the size budget of a cheaper
// encoder setting has to hold for CSS as well as for JSON, and the two
// differ by several per cent.
func smallBodies(b *testing.B) []smallBody {
	var bodies []smallBody
	for _, size := range []int{1 << 10, 4 << 10} {
		bodies = append(bodies, smallBody{fmt.Sprintf("json-%dk", size>>10), wsdeflateRepeated(size)})
	}
	css := corpusSource(b, "css-min", "bootstrap.min.css")
	for _, size := range []int{1 << 10, 4 << 10} {
		bodies = append(bodies, smallBody{fmt.Sprintf("css-%dk", size>>10), css[:size]})
	}
	return bodies
}
