package encoding

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestEmptyBodyIsNeverCoded_EmptyStreamIs: a body that ends empty needs no
// coding and gets none (SkipTooSmall), whatever MinSize; a handler that
// flushed before writing anything started a stream, which may continue,
// so it has its coding from the flush: the flush sends the header alone,
// and a stream that then ends empty is the coding's empty stream, no
// longer than what the stream's end adds (gzip 20 bytes: header and
// trailer, without the sync block of a flush of nothing).
func TestEmptyBodyIsNeverCoded_EmptyStreamIs(t *testing.T) {
	// The default levels stream through the small stream encoders; higher
	// ones through the library's.
	high := []Coding{{Codec: Zstd(), Level: 6}, {Codec: Brotli(), Level: 6}, {Codec: Gzip(), Level: 7}, {Codec: Deflate(), Level: 7}}
	for _, codings := range [][]Coding{nil, high} {
		for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
			for _, flushed := range []bool{false, true} {
				var got Stats
				m := mustNew(t, Config{Codings: codings, MinSize: EverySize, OnResponse: func(r *http.Request, s Stats) { got = s }})
				srv := httptest.NewServer(m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/event-stream")
					if flushed {
						http.NewResponseController(w).Flush()
					}
				})))
				resp := getRaw(t, srv.URL, "Accept-Encoding: "+coding)
				body, _ := io.ReadAll(resp.Body)
				srv.Close()
				sent := resp.Header.Get("Content-Encoding")
				if !flushed {
					if sent != "" || len(body) != 0 || got.Skip != SkipTooSmall || got.Coding != "" {
						t.Errorf("%s, empty body: Content-Encoding %q, %d bytes, Stats %+v; want identity, nothing, too small", coding, sent, len(body), got)
					}
					continue
				}
				if sent != coding || got.Coding != coding || got.BytesOut != int64(len(body)) {
					t.Errorf("%s, flushed empty stream: Content-Encoding %q, Stats %+v; want the coding from the flush", coding, sent, got)
					continue
				}
				if d := decodeBody(t, coding, body); len(d) != 0 {
					t.Errorf("%s, flushed empty stream: decodes to %d bytes", coding, len(d))
				}
				// What closing a fresh encoder of a flushed stream writes: the
				// stream's end alone.
				var ended bytes.Buffer
				pool := m.s.offers[0].pool
				for _, o := range m.s.offers {
					if o.pool.name() == coding {
						pool = o.pool
					}
				}
				if enc := pool.getStream(&ended); enc != nil {
					enc.Close()
					pool.putStream(enc)
				} else {
					enc, err := pool.get(&ended)
					if err != nil {
						t.Fatal(err)
					}
					enc.Close()
					pool.put(enc)
				}
				if len(body) > ended.Len() {
					t.Errorf("%s, flushed empty stream: %d bytes (% x); the stream's end alone is %d: the flush of nothing sent bytes", coding, len(body), body, ended.Len())
				}
			}
		}
	}
}
