package deflate

import "sync"

// Window holds the last Size bytes of plaintext that went through a
// stream: all an idle WebSocket direction (RFC 7692 §7.2.1, §7.2.2) or a
// released HTTP stream must keep to continue its LZ77 context. It is a
// ring, so recording a write costs a copy of it (at most Size bytes),
// never a shift of the history. The zero value with Size set is ready to
// use.
type Window struct {
	// Size is how many bytes the window keeps; 0 keeps none. Set it
	// before the first Write.
	Size int
	buf  []byte // allocated on first write, exactly Size bytes
	pos  int    // next write position
	full bool   // buf has wrapped at least once
}

// Write records p, the stream's next bytes.
func (w *Window) Write(p []byte) {
	if w.Size == 0 {
		return
	}
	if w.buf == nil {
		w.buf = make([]byte, w.Size)
	}
	if len(p) >= w.Size {
		copy(w.buf, p[len(p)-w.Size:])
		w.pos, w.full = 0, true
		return
	}
	n := copy(w.buf[w.pos:], p)
	if n < len(p) {
		copy(w.buf, p[n:])
		w.full = true
	}
	w.pos = (w.pos + len(p)) % w.Size
	if w.pos == 0 && len(p) > 0 {
		w.full = true
	}
}

// Bytes returns the history, oldest byte first, as one slice to seed a
// compressor or decompressor with; it is valid until the next Write. It rotates the ring in place, borrowing a
// pooled scratch buffer for the rotation, so an idle window never keeps a
// second buffer.
func (w *Window) Bytes() []byte {
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

// rotatePool holds scratch space for Window.Bytes; windows are at most
// 32 KiB, DEFLATE's (RFC 1951 §2).
var rotatePool = sync.Pool{New: func() any { return new([1 << 15]byte) }}

// Reset empties the window, keeping its buffer.
func (w *Window) Reset() {
	w.pos, w.full = 0, false
}
