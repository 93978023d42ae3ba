package deflate

import (
	"bytes"
	"testing"
)

func TestWindowKeepsTheLastBytesInOrder(t *testing.T) {
	// Writes that fit, wrap, fill exactly and overflow the ring.
	var all []byte
	w := Window{Size: 16}
	for i, n := range []int{5, 7, 9, 16, 3, 40, 0, 13} {
		p := bytes.Repeat([]byte{byte('a' + i)}, n)
		p = append(p[:0:0], p...)
		for j := range p {
			p[j] += byte(j % 3)
		}
		w.Write(p)
		all = append(all, p...)
		want := all[max(0, len(all)-16):]
		if got := w.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("after write %d: window = %q, want %q", i, got, want)
		}
	}
}
