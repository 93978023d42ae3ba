package deflate

import "testing"

// TestHuffmanCodesAreCompleteAndLimited builds codes for skewed
// frequencies (Fibonacci counts give the deepest Huffman trees): each must
// be complete (Kraft sum exactly 1; zlib refuses incomplete codes) and no
// longer than the limit (RFC 1951 §3.2.7: 15 bits, 7 for code lengths).
func TestHuffmanCodesAreCompleteAndLimited(t *testing.T) {
	fib := make([]uint32, numLitLen)
	a, b := uint32(1), uint32(1)
	for i := range 30 {
		fib[i] = a
		a, b = b, a+b
	}
	one := make([]uint32, numLitLen)
	one[65] = 9
	even := make([]uint32, numLitLen)
	for i := range even {
		even[i] = 5
	}
	var hb HuffBuilder
	for _, tc := range []struct {
		name    string
		freq    []uint32
		maxBits int
	}{
		{"fibonacci, 15 bits", fib, 15},
		{"fibonacci, 7 bits", fib[:numCodeLen], 7},
		{"one symbol", one, 15},
		{"no symbol", make([]uint32, numDist), 15},
		{"uniform", even, 15},
	} {
		h := NewHuffCode(len(tc.freq))
		hb.Build(h, tc.freq, tc.maxBits)
		kraft, longest := 0, 0
		for s, l := range h.Len {
			if tc.freq[s] > 0 && l == 0 {
				t.Errorf("%s: used symbol %d has no code", tc.name, s)
			}
			if l > 0 {
				kraft += 1 << (tc.maxBits - int(l))
				longest = max(longest, int(l))
			}
		}
		if kraft != 1<<tc.maxBits || longest > tc.maxBits {
			t.Errorf("%s: Kraft sum %d/%d, longest code %d bits (limit %d); want a complete code within the limit",
				tc.name, kraft, 1<<tc.maxBits, longest, tc.maxBits)
		}
	}
}
