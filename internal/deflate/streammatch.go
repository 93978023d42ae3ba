package deflate

import "encoding/binary"

// StreamMatcher finds the matches of a stream written piece by piece, for
// the streaming encoders of the other formats (internal/zstd's and
// internal/brotli's): it keeps a window of history and two hash tables,
// and turns each block of pending input into literal runs and matches that
// may reach back into the history. Matching is greedy, with one byte of
// lookahead: it tries the last match's distance first, which both formats
// send cheaply, then the last position with the same 8 bytes, then the
// same 4. Its memory is fixed: tables of 64 and 32 KiB and a buffer of the
// window plus one block.
type StreamMatcher struct {
	head   [1 << streamHashBits]int32 // position+base of the last 4-byte string per hash
	long   [1 << streamLongBits]int32 // the same for 8-byte strings
	buf    []byte                     // history (up to window bytes), then pending input
	done   int                        // buf[:done] is matched
	base   int                        // position of buf[0] as the hash table holds it
	window int
	block  int
}

const (
	streamHashBits = 14
	streamLongBits = 13
)

// NewStreamMatcher returns a StreamMatcher whose matches reach at most
// window bytes back and whose blocks hold at most block bytes.
func NewStreamMatcher(window, block int) *StreamMatcher {
	return &StreamMatcher{
		buf:    make([]byte, 0, window+block),
		base:   window + 1, // zero entries are out of reach
		window: window,
		block:  block,
	}
}

// Reset starts to continue a stream whose last input is hist (only the
// last window bytes count). It invalidates the hash tables by moving every
// position out of reach instead of clearing it.
func (m *StreamMatcher) Reset(hist []byte) {
	m.base += len(m.buf) + m.window + 1
	if m.base > BaseLimit {
		clear(m.head[:])
		clear(m.long[:])
		m.base = m.window + 1
	}
	if len(hist) > m.window {
		hist = hist[len(hist)-m.window:]
	}
	m.buf = append(m.buf[:0], hist...)
	for p := 0; p+8 <= len(m.buf); p++ {
		m.head[streamHash(m.buf, p)] = int32(p + m.base)
		m.long[streamHashLong(m.buf, p)] = int32(p + m.base)
	}
	m.done = len(m.buf)
}

// Append takes as much of p as fits in the pending block and returns the
// rest; full reports that the block is full and must be matched before
// more input is taken.
func (m *StreamMatcher) Append(p []byte) (rest []byte, full bool) {
	if len(m.buf)+m.block > cap(m.buf) {
		// Keep only the last window bytes of history at the front.
		drop := m.done - min(m.done, m.window)
		m.buf = m.buf[:copy(m.buf, m.buf[drop:])]
		m.done -= drop
		m.base += drop
	}
	k := min(len(p), m.block-(len(m.buf)-m.done))
	m.buf = append(m.buf, p[:k]...)
	return p[k:], len(m.buf)-m.done == m.block
}

// Pending returns the input not yet matched.
func (m *StreamMatcher) Pending() []byte { return m.buf[m.done:] }

// History returns the input matched so far that a match may still reach,
// up to n bytes, the most recent last. It is valid until the next Append.
func (m *StreamMatcher) History(n int) []byte {
	h := m.buf[:m.done]
	return h[len(h)-min(len(h), n, m.window):]
}

// Match finds the matches of the pending input, calling match for each in
// order with the literals before it, its length (at least 4) and its
// distance, and marks the input matched; the literals after the last match
// are the caller's to take. last is the distance the format sends most
// cheaply, tried first. No match starts in the last 8 bytes of the input.
func (m *StreamMatcher) Match(last int, match func(lits, length, dist int)) {
	src, end := m.buf, len(m.buf)
	p, pending := m.done, m.done
	for p+8 <= end {
		v := binary.LittleEndian.Uint32(src[p:])
		h := streamHash(src, p)
		c := int(m.head[h]) - m.base
		m.head[h] = int32(p + m.base)
		hl := streamHashLong(src, p)
		cl := int(m.long[hl]) - m.base
		m.long[hl] = int32(p + m.base)
		if r := p - last; p > pending && r >= 0 && last <= m.window && binary.LittleEndian.Uint32(src[r:]) == v {
			c = r
		} else if cl >= 0 && p-cl <= m.window && binary.LittleEndian.Uint64(src[cl:]) == binary.LittleEndian.Uint64(src[p:]) {
			c = cl
		} else if c < 0 || p-c > m.window || binary.LittleEndian.Uint32(src[c:]) != v {
			p += 1 + (p-pending)>>6
			continue
		}
		length := 4 + MatchLen(src[c+4:], src[p+4:end])
		if q := p + 1; length < 32 && q+8 <= end {
			// One byte of lookahead: a longer match there saves a command.
			h := streamHash(src, q)
			c1 := int(m.head[h]) - m.base
			m.head[h] = int32(q + m.base)
			if c1 >= 0 && q-c1 <= m.window && binary.LittleEndian.Uint32(src[c1:]) == binary.LittleEndian.Uint32(src[q:]) {
				if l := 4 + MatchLen(src[c1+4:], src[q+4:end]); l > length+1 {
					p, c, length = q, c1, l
				}
			}
		}
		for p > pending && c > 0 && src[p-1] == src[c-1] {
			p, c, length = p-1, c-1, length+1
		}
		last = p - c
		match(p-pending, length, last)
		p += length
		pending = p
		// Index the match's last positions: the next match often starts
		// there.
		for q := p - 2; q < p && q+8 <= end; q++ {
			m.head[streamHash(src, q)] = int32(q + m.base)
			m.long[streamHashLong(src, q)] = int32(q + m.base)
		}
	}
	m.done = end
}

func streamHash(b []byte, i int) uint32 {
	return (binary.LittleEndian.Uint32(b[i:]) * 2654435761) >> (32 - streamHashBits)
}

func streamHashLong(b []byte, i int) uint32 {
	return uint32((binary.LittleEndian.Uint64(b[i:]) * 0xcf1bbcdcb7a56463) >> (64 - streamLongBits))
}
