package encoding

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// delegatingCodec is a user's Codec around another one, as Padder's doc
// asks it to be written: the Codec methods come with the embedded value,
// and each optional interface is forwarded by hand, since embedding an
// interface promotes only that interface's methods.
type delegatingCodec struct{ Codec }

func (d delegatingCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	return d.Codec.(AppendEncoder).AppendEncode(dst, src, level)
}

func (d delegatingCodec) Pad(wr Writer, dst io.Writer, n int) error {
	return d.Codec.(Padder).Pad(wr, dst, n)
}

func (d delegatingCodec) AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error) {
	return d.Codec.(AppendPadder).AppendEncodePadded(dst, src, level, n)
}

// TestWrappingCodecKeepsFastPathsAndPadding: the middleware finds the
// one-shot path and the padding of a Codec by type assertion alone, so a
// user's Codec that forwards them to a built-in sends the same bytes as
// the built-in, padded or not, whole or streamed, with the same number of
// allocations per response: nothing is reserved to the built-in values.
func TestWrappingCodecKeepsFastPathsAndPadding(t *testing.T) {
	// Whole bodies small enough for the own encoders, and past them; a
	// stream, longer than the buffer.
	sizes := []int{1 << 10, 20 << 10, DefaultBufferSize + 1}
	for _, c := range builtinCodings {
		for _, jitter := range []int{0, 100} {
			builtin := mustNew(t, Config{Jitter: jitter, Codings: []Coding{c}})
			wrapped := mustNew(t, Config{Jitter: jitter, Codings: []Coding{{Codec: delegatingCodec{c.Codec}, Level: c.Level}}})
			coding := c.Codec.Name()
			for _, size := range sizes {
				name := fmt.Sprintf("%s level %d, jitter %d, %d bytes", coding, c.Level, jitter, size)
				body := jsonText(size)
				h := writeBody("application/json", body)
				want := serve(t, builtin, h, "GET", "Accept-Encoding: "+coding)
				got := serve(t, wrapped, h, "GET", "Accept-Encoding: "+coding)
				if got.Header().Get("Content-Encoding") != coding {
					t.Fatalf("%s: the wrapping codec was not used: %s", name, describe(got))
				}
				checkDecodes(t, name, coding, got.Body.Bytes(), body)
				stream := size > DefaultBufferSize
				switch {
				case !stream || jitter == 0:
					// A whole body's padding is a keyed hash of the body:
					// the same for both.
					if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
						t.Errorf("%s: the wrapping codec sent %d bytes, the built-in %d, not the same", name, got.Body.Len(), want.Body.Len())
					}
				default:
					// A stream's padding is random: check that there is
					// some, against the same stream unpadded.
					plain := serve(t, mustNew(t, Config{Codings: []Coding{c}}), h, "GET", "Accept-Encoding: "+coding)
					if got.Body.Len() <= plain.Body.Len() {
						t.Errorf("%s: the wrapping codec's stream is %d bytes, unpadded %d: not padded", name, got.Body.Len(), plain.Body.Len())
					}
				}
				if raceEnabled || stream && jitter != 0 {
					continue
				}
				if b, w := allocsPerResponse(builtin, h, coding), allocsPerResponse(wrapped, h, coding); w != b {
					t.Errorf("%s: %v allocations per response with the wrapping codec, %v with the built-in", name, w, b)
				}
			}
		}
	}
}

// allocsPerResponse returns the allocations of one response of h through
// m in coding, the least of a few measurements: a collection emptying the
// pools during one can only add to it.
func allocsPerResponse(m *Middleware, h http.HandlerFunc, coding string) float64 {
	handler := m.Handler(h)
	r := serveRequest("GET", "Accept-Encoding: "+coding)
	w := &discardWriter{h: http.Header{}}
	least := -1.0
	for range 3 {
		n := testing.AllocsPerRun(20, func() {
			clear(w.h)
			handler.ServeHTTP(w, r)
		})
		if least < 0 || n < least {
			least = n
		}
	}
	return least
}
