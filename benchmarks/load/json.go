package load

import (
	"fmt"
	"strings"
)

// JSON returns about size bytes of an API-like JSON array: the dynamic
// body the report's servers answer with, and its stand-in for corpus
// assets when the corpus is not there.
func JSON(size int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","price":%d.%02d,"tags":["t%d","t%d"],"active":%t}`,
			i, i*7919%1000, i*37%500, i%100, i%13, i%7, i%3 == 0)
	}
	b.WriteString("]")
	return []byte(b.String())
}
