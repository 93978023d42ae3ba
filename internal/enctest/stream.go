package enctest

import "bytes"

// StreamEncoder is what the stream encoders of internal/zstd and
// internal/brotli have in common (the encoding package, which drives them,
// names the same methods; this package cannot import it, nor it this one).
type StreamEncoder[S any] interface {
	Header(dst []byte) []byte
	Reset(hist []byte, state S)
	State() S
	History(n int) []byte
	Write(dst, p []byte) []byte
	Flush(dst []byte) []byte
	Close(dst []byte) []byte
}

// pieceSizes are the lengths of the writes StreamEncode makes, cycled:
// single bytes, events, and writes that fill and overrun a block.
var pieceSizes = []int{1, 100, 7, 3000, 40000, 250}

// StreamEncode encodes body, appended to dst, as a stream of writes of
// pieceSizes, each flushed, starting from state start; after every third
// write the stream moves to the other of the two encoders, continued from
// the first's last 8 KiB of history and its state, as a stream released
// while idle is.
func StreamEncode[S any, E StreamEncoder[S]](encs [2]E, start S, dst, body []byte) []byte {
	e := encs[0]
	e.Reset(nil, start)
	dst = e.Header(dst)
	for i := 0; len(body) > 0; i++ {
		n := min(len(body), pieceSizes[i%len(pieceSizes)])
		dst = e.Flush(e.Write(dst, body[:n]))
		body = body[n:]
		if i%3 == 2 {
			next := encs[(i/3+1)%2]
			next.Reset(bytes.Clone(e.History(8<<10)), e.State())
			e = next
		}
	}
	return e.Close(dst)
}
