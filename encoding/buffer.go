package encoding

import "sync"

// Body buffers are pooled. A buffer grows to what the responses it serves
// need and is kept at that size, so that steady traffic allocates none;
// one that grew past maxPooledBuffer is dropped rather than kept.
var bufferPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4<<10)
	return &b
}}

// maxPooledBuffer bounds what the pool keeps per buffer: twice the default
// BufferSize, which a compressed copy of an incompressible body may need.
const maxPooledBuffer = 2 * DefaultBufferSize

func getBuffer() *[]byte {
	b := bufferPool.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

func putBuffer(b *[]byte) {
	if cap(*b) > maxPooledBuffer {
		return
	}
	bufferPool.Put(b)
}
