package wsdeflate

import (
	"testing"
)

// distances walks a permessage-deflate payload (trailer appended) with a
// minimal RFC 1951 decoder and returns the distance of every back-reference,
// so tests can check a compressor's window without trusting any inflater.
func distances(t *testing.T, payload []byte) []int {
	t.Helper()
	br := bitReader{data: append(append([]byte(nil), payload...), trailer[:]...)}
	var dists []int
	for {
		final := br.bits(1)
		switch typ := br.bits(2); typ {
		case 0:
			br.align()
			n := br.bits(16)
			br.bits(16)
			br.skipBytes(n)
		case 1, 2:
			lit, dist := fixedCodes()
			if typ == 2 {
				lit, dist = br.dynamicCodes()
			}
			for {
				sym := br.decode(lit)
				if sym < 256 {
					continue
				}
				if sym == 256 {
					break
				}
				br.bits(lengthExtra[sym-257])
				d := br.decode(dist)
				dists = append(dists, distBase[d]+br.bits(distExtra[d]))
			}
		default:
			t.Fatalf("invalid block type 3")
		}
		if br.err != "" {
			t.Fatalf("walking the payload: %s", br.err)
		}
		if final == 1 || br.pos >= len(br.data)*8 {
			return dists
		}
	}
}

var (
	lengthExtra = [29]int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

type bitReader struct {
	data []byte
	pos  int // in bits
	err  string
}

func (r *bitReader) bits(n int) int {
	v := 0
	for i := range n {
		if r.pos >= len(r.data)*8 {
			r.err = "unexpected end of data"
			return 0
		}
		v |= int(r.data[r.pos/8]>>(r.pos%8)&1) << i
		r.pos++
	}
	return v
}

func (r *bitReader) align() { r.pos = (r.pos + 7) &^ 7 }

func (r *bitReader) skipBytes(n int) { r.pos += 8 * n }

// huffman maps (code length, code) to a symbol, built canonically
// (RFC 1951 §3.2.2).
type huffman map[[2]int]int

func canonical(lengths []int) huffman {
	var count [16]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]int
	code := 0
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	h := huffman{}
	for sym, l := range lengths {
		if l != 0 {
			h[[2]int{l, next[l]}] = sym
			next[l]++
		}
	}
	return h
}

func (r *bitReader) decode(h huffman) int {
	code := 0
	for l := 1; l < 16; l++ {
		code = code<<1 | r.bits(1)
		if sym, ok := h[[2]int{l, code}]; ok {
			return sym
		}
		if r.err != "" {
			break
		}
	}
	r.err = "bad Huffman code"
	return 256
}

func fixedCodes() (lit, dist huffman) {
	l := make([]int, 288)
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	d := make([]int, 30)
	for i := range d {
		d[i] = 5
	}
	return canonical(l), canonical(d)
}

func (r *bitReader) dynamicCodes() (lit, dist huffman) {
	hlit, hdist, hclen := r.bits(5)+257, r.bits(5)+1, r.bits(4)+4
	order := [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	cl := make([]int, 19)
	for i := range hclen {
		cl[order[i]] = r.bits(3)
	}
	clh := canonical(cl)
	lengths := make([]int, 0, hlit+hdist)
	for len(lengths) < hlit+hdist && r.err == "" {
		switch sym := r.decode(clh); {
		case sym < 16:
			lengths = append(lengths, sym)
		case sym == 16:
			prev := lengths[len(lengths)-1]
			for range 3 + r.bits(2) {
				lengths = append(lengths, prev)
			}
		case sym == 17:
			lengths = append(lengths, make([]int, 3+r.bits(3))...)
		default:
			lengths = append(lengths, make([]int, 11+r.bits(7))...)
		}
	}
	return canonical(lengths[:hlit]), canonical(lengths[hlit : hlit+hdist])
}
