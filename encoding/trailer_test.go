package encoding

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// RFC 9110 §6.5: trailers the handler declares (in a Trailer field or with
// http.TrailerPrefix) and sets after writing its body arrive as trailers
// and not as header fields, over HTTP/1.1 (chunked, so no Content-Length)
// and HTTP/2, whether the body is compressed whole, streamed or passed
// through uncompressed. The middleware sends headers after the handler
// returned, when the trailer values are already set.
func TestDeclaredTrailersStayTrailers(t *testing.T) {
	type trailerCase struct {
		name     string
		size     int
		coding   string // Accept-Encoding, and the coding expected
		prefixed bool   // http.TrailerPrefix instead of a Trailer field
	}
	cases := []trailerCase{
		{"compressed whole", 4096, "gzip", false},
		{"compressed whole, TrailerPrefix", 4096, "br", true},
		{"streamed", 300 << 10, "zstd", false},
		{"identity, under MinSize", 100, "gzip", false},
		{"identity client", 4096, "identity", false},
	}
	handler := func(c trailerCase, body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if !c.prefixed {
				w.Header().Set("Trailer", "X-Sum")
			}
			w.Header().Set("Content-Type", "text/plain")
			w.Write(body)
			if c.prefixed {
				w.Header().Set(http.TrailerPrefix+"X-Sum", "abc")
			} else {
				w.Header().Set("X-Sum", "abc")
			}
		}
	}
	for _, h2 := range []bool{false, true} {
		for _, c := range cases {
			body := sampleText(c.size)
			srv := httptest.NewUnstartedServer(mustNew(t, Config{}).Handler(handler(c, body)))
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			client := srv.Client()
			client.Transport.(*http.Transport).DisableCompression = true
			req, _ := http.NewRequest("GET", srv.URL, nil)
			req.Header.Set("Accept-Encoding", c.coding)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body) // trailers are read with the body's end
			resp.Body.Close()
			srv.Close()
			if err != nil {
				t.Fatalf("%s, %s: %v", resp.Proto, c.name, err)
			}
			coding := resp.Header.Get("Content-Encoding")
			if want := c.coding; want == "identity" || c.size < DefaultMinSize {
				if coding != "" {
					t.Errorf("%s, %s: Content-Encoding %q, want none", resp.Proto, c.name, coding)
				}
			} else if coding != want {
				t.Errorf("%s, %s: Content-Encoding %q, want %s", resp.Proto, c.name, coding, want)
			}
			if !bytes.Equal(decodeBody(t, coding, got), body) {
				t.Errorf("%s, %s: body differs", resp.Proto, c.name)
			}
			if v := resp.Header.Get("X-Sum"); v != "" {
				t.Errorf("%s, %s: trailer X-Sum sent as a header field too (%q)", resp.Proto, c.name, v)
			}
			if v := resp.Trailer.Get("X-Sum"); v != "abc" {
				t.Errorf("%s, %s: trailer X-Sum = %q, want abc", resp.Proto, c.name, v)
			}
			if resp.ProtoMajor == 1 && resp.ContentLength != -1 {
				t.Errorf("%s, %s: Content-Length %d: a body so delimited carries no trailers", resp.Proto, c.name, resp.ContentLength)
			}
		}
	}
}

// Trailers need chunked framing: a whole body with declared trailers goes
// out without Content-Length.
func TestTrailersSurviveCompression(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum")
		w.Header().Set("Content-Type", "text/plain")
		w.Write(sampleText(4096))
		w.Header().Set("X-Sum", "abc")
	}
	rec := serve(t, mustNew(t, Config{}), h, "GET", "Accept-Encoding: gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Length") != "" {
		t.Fatalf("%s; want gzip without Content-Length", describe(rec))
	}
	if got := rec.Result().Trailer.Get("X-Sum"); got != "abc" {
		t.Fatalf("trailer X-Sum = %q, want abc", got)
	}
}
