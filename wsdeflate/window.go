package wsdeflate

import "sync"

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
// compressor or decompressor with. It rotates the ring in place, borrowing a
// pooled scratch buffer for the rotation, so an idle window never keeps a
// second buffer.
func (w *window) bytes() []byte {
	if !w.full {
		return w.buf[:w.pos]
	}
	if w.pos != 0 {
		// buf[pos:] is the oldest part: move it to the front.
		scratch := rotatePool.Get().(*[1 << 15]byte)
		old := copy(scratch[:], w.buf[w.pos:])
		copy(w.buf[old:], w.buf[:w.pos])
		copy(w.buf, scratch[:old])
		rotatePool.Put(scratch)
		w.pos = 0
	}
	return w.buf
}

// rotatePool holds scratch space for window.bytes; windows are at most
// 32 KiB (RFC 7692 §7.1.2: 15 window bits).
var rotatePool = sync.Pool{New: func() any { return new([1 << 15]byte) }}

func (w *window) reset() {
	w.pos, w.full = 0, false
}
