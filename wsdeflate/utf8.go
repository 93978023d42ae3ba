package wsdeflate

import "unicode/utf8"

// utf8Stream validates UTF-8 text that arrives in pieces, such as the
// fragments of a message or the output of a streaming inflater (RFC 6455
// §8.1: the whole message must be UTF-8, and a character may be split
// anywhere).
type utf8Stream struct {
	pending [utf8.UTFMax]byte // start of a character cut off by the last piece
	n       int
}

// write reports whether p, following what came before, is still valid.
func (v *utf8Stream) write(p []byte) bool {
	if v.n > 0 {
		for len(p) > 0 && !utf8.FullRune(v.pending[:v.n]) {
			v.pending[v.n] = p[0]
			v.n++
			p = p[1:]
		}
		if !utf8.FullRune(v.pending[:v.n]) {
			return true // p ended inside the same character
		}
		if r, size := utf8.DecodeRune(v.pending[:v.n]); r == utf8.RuneError && size <= 1 {
			return false
		}
		v.n = 0
	}
	// Hold back a character that p cuts off; at most 3 bytes of it.
	i := len(p) - 1
	for back := 0; back < utf8.UTFMax-1 && i > 0 && !utf8.RuneStart(p[i]); back++ {
		i--
	}
	if i >= 0 && !utf8.FullRune(p[i:]) {
		v.n = copy(v.pending[:], p[i:])
		p = p[:i]
	}
	return utf8.Valid(p)
}

// complete reports whether no character is left unfinished.
func (v *utf8Stream) complete() bool { return v.n == 0 }
