package wsdeflate

// window holds the last size bytes of plaintext that went through one
// direction: all an idle connection must keep to continue its LZ77 context
// (RFC 7692 §7.2.1, §7.2.2). It is a ring, so recording a message costs a
// copy of the message (at most size bytes), never a shift of the history.
type window struct {
	buf  []byte // allocated on first write, exactly size bytes
	size int
	pos  int  // next write position
	full bool // buf has wrapped at least once
}

func (w *window) write(p []byte) {
	if w.size == 0 {
		return
	}
	if w.buf == nil {
		w.buf = make([]byte, w.size)
	}
	if len(p) >= w.size {
		copy(w.buf, p[len(p)-w.size:])
		w.pos, w.full = 0, true
		return
	}
	n := copy(w.buf[w.pos:], p)
	if n < len(p) {
		copy(w.buf, p[n:])
		w.full = true
	}
	w.pos = (w.pos + len(p)) % w.size
	if w.pos == 0 && len(p) > 0 {
		w.full = true
	}
}

// bytes returns the history, oldest byte first, as one slice to seed a
// compressor or decompressor with. It rotates the ring in place rather than
// copying it, so it keeps no second buffer.
func (w *window) bytes() []byte {
	if !w.full {
		return w.buf[:w.pos]
	}
	if w.pos != 0 {
		reverse(w.buf[:w.pos])
		reverse(w.buf[w.pos:])
		reverse(w.buf)
		w.pos = 0
	}
	return w.buf
}

func (w *window) reset() {
	w.pos, w.full = 0, false
}

func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}
