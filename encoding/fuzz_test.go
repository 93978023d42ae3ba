package encoding

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzWriterSequence drives the middleware's ResponseWriter with a sequence
// of WriteHeader, Write, WriteString and Flush calls of random sizes, read
// from the input, and checks that whatever coding was chosen the client
// decodes exactly the bytes the handler wrote.
func FuzzWriterSequence(f *testing.F) {
	f.Add([]byte{0x10, 0x80, 0x21, 0x30, 0x90, 0x40}, "gzip")
	f.Add([]byte{0x00, 0xff, 0xff, 0xff, 0x30}, "zstd")
	f.Add([]byte{0x22, 0x31, 0x13}, "br, gzip")
	f.Add([]byte{0x41, 0x50, 0x60}, "deflate")
	plain := mustNew(f, Config{MinSize: 64, BufferSize: 4096})
	padded := mustNew(f, Config{MinSize: 64, BufferSize: 4096, Jitter: 64})
	f.Fuzz(func(t *testing.T, ops []byte, accept string) {
		m := plain
		if len(accept)%2 == 1 {
			m = padded
		}
		if len(ops) > 256 {
			return
		}
		var want bytes.Buffer
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			for i, op := range ops {
				n := int(op&0x0f) << (op >> 6 * 3) // 0 to 15, times 1, 8, 64 or 512
				chunk := sampleText(n + i)[i:]
				switch op >> 4 & 3 {
				case 0:
					w.Write(chunk)
				case 1:
					w.(interface{ WriteString(string) (int, error) }).WriteString(string(chunk))
				case 2:
					w.(http.Flusher).Flush()
					continue
				case 3:
					w.WriteHeader(http.StatusOK + int(op&1)) // 200 or 201, a second call is ignored
					continue
				}
				want.Write(chunk)
			}
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", accept)
		rec := httptest.NewRecorder()
		m.Handler(http.HandlerFunc(h)).ServeHTTP(rec, r)
		coding := rec.Result().Header.Get("Content-Encoding") // as sent, not as later edited
		if got := decodeBody(t, coding, rec.Body.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("coding %q: decoded %d bytes, handler wrote %d", coding, len(got), want.Len())
		}
	})
}
