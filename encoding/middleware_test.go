package encoding

import (
	"bytes"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var allCodings = []string{"zstd", "br", "gzip", "deflate"}

// Every coding round-trips byte for byte, held back (one shot, with
// Content-Length) and streamed (past BufferSize, without it).
func TestEachCodingRoundTrips(t *testing.T) {
	m := mustNew(t, Config{BufferSize: 32 << 10})
	for _, coding := range allCodings {
		for _, size := range []int{1024, 20 << 10, 300 << 10} {
			body := sampleText(size)
			rec := serve(t, m, writeBody("application/json", body), "GET", "Accept-Encoding: "+coding)
			if got := rec.Header().Get("Content-Encoding"); got != coding {
				t.Fatalf("%s %d B: Content-Encoding %q; %s", coding, size, got, describe(rec))
			}
			if got := decodeBody(t, coding, rec.Body.Bytes()); !bytes.Equal(got, body) {
				t.Fatalf("%s %d B: decoded body differs from what the handler wrote", coding, size)
			}
			cl := rec.Header().Get("Content-Length")
			if whole := size < 32<<10; whole != (cl != "") {
				t.Errorf("%s %d B: Content-Length %q; want it exactly when the body fit the buffer", coding, size, cl)
			}
			if cl != "" && cl != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("%s %d B: Content-Length %s but %d bytes sent", coding, size, cl, rec.Body.Len())
			}
		}
	}
}

// RFC 9112 §6.3: the Content-Length of a body compressed whole is its exact
// length on the wire. net/http serializes the header of a small response
// only after the handler returned, when the middleware has released its
// state, so this goes over TCP with responses of every digit count sent at
// once on several connections.
func TestContentLengthOverTheWire(t *testing.T) {
	sizes := []int{120, 1500, 9000, 60 << 10}
	m := mustNew(t, Config{MinSize: 100})
	srv := httptest.NewServer(m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(sampleText(n))
	})))
	defer srv.Close()
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	type reply struct {
		coding string
		n      int
		resp   *http.Response
		body   []byte
		err    error
	}
	var wg sync.WaitGroup
	replies := make(chan reply, 4*len(allCodings)*len(sizes))
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, coding := range allCodings {
				for _, n := range sizes {
					r := reply{coding: coding, n: n}
					req, _ := http.NewRequest("GET", srv.URL+"/?n="+strconv.Itoa(n), nil)
					req.Header.Set("Accept-Encoding", coding)
					if r.resp, r.err = client.Do(req); r.err == nil {
						r.body, r.err = io.ReadAll(r.resp.Body)
						r.resp.Body.Close()
					}
					replies <- r
				}
			}
		}()
	}
	wg.Wait()
	close(replies)
	for r := range replies {
		switch {
		case r.err != nil:
			t.Errorf("%s %d B: %v", r.coding, r.n, r.err)
		case r.resp.Header.Get("Content-Encoding") != r.coding:
			t.Errorf("%s %d B: Content-Encoding %q", r.coding, r.n, r.resp.Header.Get("Content-Encoding"))
		case r.resp.ContentLength != int64(len(r.body)):
			t.Errorf("%s %d B: Content-Length %d but %d bytes came", r.coding, r.n, r.resp.ContentLength, len(r.body))
		case !bytes.Equal(decodeBody(t, r.coding, r.body), sampleText(r.n)):
			t.Errorf("%s %d B: decoded body differs", r.coding, r.n)
		}
	}
}

// The Content-Length digits are written by hand; each digit count, and
// zero, must read as strconv would write it.
func TestContentLengthDigits(t *testing.T) {
	for _, n := range []int{0, 7, 10, 99, 100, 667, 131072, math.MaxInt} {
		var c headerInt
		if got, want := c.set(n)[0], strconv.Itoa(n); got != want {
			t.Errorf("Content-Length of %d is %q, want %q", n, got, want)
		}
	}
}

// RFC 9110 §12.5.3: the client's weights, then the server's order.
func TestNegotiationFollowsWeightsThenServerOrder(t *testing.T) {
	m := mustNew(t, Config{})
	body := sampleText(4096)
	for accept, want := range map[string]string{
		"gzip, deflate, br, zstd":       "zstd",
		"gzip, deflate, br":             "br",
		"gzip;q=1, br;q=0.5":            "gzip",
		"x-gzip":                        "gzip",
		"deflate":                       "deflate",
		"identity":                      "",
		"zstd;q=0, br;q=0, *;q=0.1":     "gzip",
		"compress":                      "",
		"identity;q=0, *;q=0, gzip;q=0": "",
	} {
		rec := serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: "+accept)
		if got := rec.Header().Get("Content-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: got coding %q, want %q", accept, got, want)
		}
	}
}

// A request without Accept-Encoding gets identity.
func TestAbsentAcceptEncodingGetsIdentity(t *testing.T) {
	rec := serve(t, mustNew(t, Config{}), writeBody("text/plain", sampleText(4096)), "GET")
	if ce := rec.Header().Get("Content-Encoding"); ce != "" {
		t.Fatalf("got Content-Encoding %q without Accept-Encoding", ce)
	}
}

// RFC 9110 §12.5.5: a response whose coding depended on Accept-Encoding says
// so, compressed or not.
func TestVaryOnIdentityResponse(t *testing.T) {
	m := mustNew(t, Config{})
	rec := serve(t, m, writeBody("text/html", sampleText(4096)), "GET", "Accept-Encoding: identity")
	if got := rec.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
		t.Fatalf("identity response: Vary %q, want [Accept-Encoding]", got)
	}
	rec = serve(t, m, writeBody("text/html", sampleText(4096)), "GET")
	if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
		t.Fatalf("response to a request without Accept-Encoding: Vary %q", got)
	}
}

func TestVaryMergedWithHandlersVary(t *testing.T) {
	m := mustNew(t, Config{})
	for _, c := range []struct{ handlerVary, want string }{
		{"Origin", "Origin, Accept-Encoding"},
		{"accept-encoding", "accept-encoding"},
		{"*", "*"},
	} {
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Vary", c.handlerVary)
			w.Header().Set("Content-Type", "text/plain")
			w.Write(sampleText(4096))
		}
		rec := serve(t, m, h, "GET", "Accept-Encoding: gzip")
		if got := strings.Join(rec.Header().Values("Vary"), "|"); got != c.want {
			t.Errorf("handler Vary %q: got %q, want %q", c.handlerVary, got, c.want)
		}
	}
}

// A response that no client would get compressed (too small, not a
// compressible type) has nothing to negotiate: no Vary, no coding.
func TestNotCompressedBelowMinSizeOrForOtherTypes(t *testing.T) {
	m := mustNew(t, Config{})
	for _, c := range []struct {
		name, contentType string
		size              int
	}{
		{"below MinSize", "text/plain", DefaultMinSize - 1},
		{"image", "image/png", 8192},
		{"zip", "application/zip", 8192},
		{"woff2", "font/woff2", 8192},
	} {
		rec := serve(t, m, writeBody(c.contentType, sampleText(c.size)), "GET", "Accept-Encoding: gzip")
		if rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Vary") != "" {
			t.Errorf("%s: %s; want it untouched", c.name, describe(rec))
		}
		if rec.Body.Len() != c.size {
			t.Errorf("%s: body is %d bytes, want %d", c.name, rec.Body.Len(), c.size)
		}
	}
}

// The decision waits for MinSize: Content-Length, when the handler sets it,
// decides at once.
func TestContentLengthDecidesBeforeTheBody(t *testing.T) {
	m := mustNew(t, Config{})
	small := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "10")
		w.Write([]byte("0123456789"))
	}
	if rec := serve(t, m, small, "GET", "Accept-Encoding: gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Content-Length") != "10" {
		t.Fatalf("small Content-Length: %s", describe(rec))
	}
}

func TestSniffsTheUncompressedBytes(t *testing.T) {
	body := append([]byte("<!DOCTYPE html><html><body>"), sampleText(4096)...)
	rec := serve(t, mustNew(t, Config{}), writeBody("", body), "GET", "Accept-Encoding: br")
	if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("Content-Type %q, want the sniffed type of the uncompressed body", ct)
	}
	if rec.Header().Get("Content-Encoding") != "br" {
		t.Fatalf("sniffed HTML not compressed: %s", describe(rec))
	}
}

// Bodies that must not be compressed: RFC 9110 §15.3.5 (204), §15.3.7 (206),
// §15.4.5 (304); a Content-Encoding the handler set; RFC 9111 §5.2.2.6
// no-transform; a Content-Range.
func TestResponsesThatAreNeverCompressed(t *testing.T) {
	m := mustNew(t, Config{})
	body := sampleText(4096)
	for name, h := range map[string]http.HandlerFunc{
		"204": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
		"206": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusPartialContent)
			w.Write(body)
		},
		"304": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) },
		"encoded by the handler": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(body)
		},
		"no-transform": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Cache-Control", "public, No-Transform")
			w.Write(body)
		},
		"content-range": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Range", "bytes 0-4095/9000")
			w.Write(body)
		},
		"bypass": func(w http.ResponseWriter, r *http.Request) {
			Bypass(w)
			w.Header().Set("Content-Type", "text/plain")
			w.Write(body)
		},
	} {
		rec := serve(t, m, h, "GET", "Accept-Encoding: gzip, br, zstd")
		if ce := rec.Header().Get("Content-Encoding"); ce != "" && name != "encoded by the handler" || ce != "gzip" && name == "encoded by the handler" {
			t.Errorf("%s: %s", name, describe(rec))
		}
		if name != "204" && name != "304" && !bytes.Equal(rec.Body.Bytes(), body) {
			t.Errorf("%s: body changed", name)
		}
	}
}

// Accept-Ranges advertises ranges of the identity bytes; a compressed body
// offers none (ranges are served only as identity, see TestRange...).
func TestAcceptRangesRemovedWhenCompressing(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "a.txt", time.Unix(1e9, 0), bytes.NewReader(sampleText(8192)))
	}
	rec := serve(t, mustNew(t, Config{}), h, "GET", "Accept-Encoding: gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Accept-Ranges") != "" {
		t.Fatalf("ServeContent through the middleware: %s", describe(rec))
	}
	rec = serve(t, mustNew(t, Config{}), h, "GET", "Accept-Encoding: gzip", "Range: bytes=0-99")
	if rec.Code != http.StatusPartialContent || rec.Header().Get("Content-Encoding") != "" || rec.Body.Len() != 100 {
		t.Fatalf("Range request: %s; want a 206 of identity bytes", describe(rec))
	}
}

// HEAD gets the headers GET would get, without a body (RFC 9110 §9.3.2).
func TestHEADHasTheHeadersOfGET(t *testing.T) {
	m := mustNew(t, Config{})
	h := func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "a.js", time.Unix(1e9, 0), bytes.NewReader(sampleText(8192)))
	}
	get := serve(t, m, h, "GET", "Accept-Encoding: br")
	head := serve(t, m, h, "HEAD", "Accept-Encoding: br")
	for _, name := range []string{"Content-Encoding", "Content-Type", "Vary", "Accept-Ranges", "Last-Modified"} {
		if g, hd := get.Header().Get(name), head.Header().Get(name); g != hd {
			t.Errorf("%s: GET has %q, HEAD has %q", name, g, hd)
		}
	}
	if head.Body.Len() != 0 {
		t.Errorf("HEAD response has a %d-byte body", head.Body.Len())
	}
}

// RFC 9110 §12.5.3 allows identity when the client excludes everything;
// 406 is opt-in.
func TestNotAcceptableOnlyWhenConfigured(t *testing.T) {
	body := sampleText(4096)
	rec := serve(t, mustNew(t, Config{}), writeBody("text/plain", body), "GET", "Accept-Encoding: identity;q=0, *;q=0")
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), body) {
		t.Fatalf("default: %s; want identity anyway", describe(rec))
	}
	rec = serve(t, mustNew(t, Config{NotAcceptable: true}), writeBody("text/plain", body), "GET", "Accept-Encoding: identity;q=0, *;q=0")
	if rec.Code != http.StatusNotAcceptable {
		t.Fatalf("NotAcceptable: %s; want 406", describe(rec))
	}
}

func TestOnResponseReportsWhatWasDone(t *testing.T) {
	var got []Stats
	m := mustNew(t, Config{OnResponse: func(r *http.Request, s Stats) { got = append(got, s) }})
	body := sampleText(8192)
	rec := serve(t, m, writeBody("application/json", body), "GET", "Accept-Encoding: zstd")
	serve(t, m, writeBody("application/json", body), "GET")
	if len(got) != 2 {
		t.Fatalf("OnResponse called %d times for 2 responses", len(got))
	}
	if s := got[0]; s.Coding != "zstd" || s.BytesIn != 8192 || s.BytesOut != int64(rec.Body.Len()) || s.Status != 200 || s.Duration <= 0 {
		t.Errorf("compressed response: %+v (sent %d bytes)", s, rec.Body.Len())
	}
	if s := got[1]; s.Coding != "" || s.BytesIn != 8192 || s.BytesOut != 8192 || s.Duration != 0 {
		t.Errorf("identity response: %+v", s)
	}
}

func TestConfigErrors(t *testing.T) {
	for name, cfg := range map[string]Config{
		"empty codings": {Codings: []Coding{}},
		"nil codec":     {Codings: []Coding{{}}},
		"twice":         {Codings: []Coding{{Codec: Gzip()}, {Codec: Gzip(), Level: 1}}},
		"bad level":     {Codings: []Coding{{Codec: Gzip(), Level: 99}}},
		"etag mode":     {ETag: ETagMode(9)},
	} {
		if _, err := New(cfg); err == nil || !strings.HasPrefix(err.Error(), "encoding: ") {
			t.Errorf("%s: New returned %v, want an error from this package", name, err)
		}
	}
}

// BREACH length hiding on every coding: padded responses still decode to
// the same body, are longer than unpadded ones by at least 1 and at most
// Jitter and the coding's fixed overhead (14 bytes at most, see
// Config.Jitter), and the same whole body always gets the same padding;
// streams get a random amount.
func TestJitterPadsCompressedResponses(t *testing.T) {
	t.Parallel()
	const jitter, overhead = 300, 14
	plain := mustNew(t, Config{})
	padded := mustNew(t, Config{Jitter: jitter})
	for _, coding := range allCodings {
		for _, size := range []int{4096, 300 << 10} {
			body := sampleText(size)
			a := serve(t, plain, writeBody("text/plain", body), "GET", "Accept-Encoding: "+coding)
			b := serve(t, padded, writeBody("text/plain", body), "GET", "Accept-Encoding: "+coding)
			c := serve(t, padded, writeBody("text/plain", body), "GET", "Accept-Encoding: "+coding)
			if !bytes.Equal(decodeBody(t, coding, b.Body.Bytes()), body) {
				t.Fatalf("%s %d B: padded body does not decode to the original", coding, size)
			}
			base := a.Body.Len()
			if coding == "br" && size <= ownMaxBody("br", defaultBrotliLevel) {
				// Padded br bodies go to andybalholm/brotli, not the own encoder.
				whole, err := brotliBuiltin.appendStream(nil, body, defaultBrotliLevel, 0)
				if err != nil {
					t.Fatal(err)
				}
				base = len(whole)
			}
			extra := b.Body.Len() - base
			if extra < 1 || extra > jitter+overhead {
				t.Errorf("%s %d B: padding added %d bytes, want 1 to %d", coding, size, extra, jitter+overhead)
			}
			if size <= DefaultBufferSize && b.Body.Len() != c.Body.Len() {
				t.Errorf("%s %d B: the same body got %d and %d bytes: averaging would cancel the padding", coding, size, b.Body.Len(), c.Body.Len())
			}
			if size > DefaultBufferSize {
				// Streamed, each response draws its padding: of eight
				// streams of one body, all the same length would be a
				// chance of 300^-7.
				streams := []*response{b, c}
				for range 6 {
					streams = append(streams, serve(t, padded, writeBody("text/plain", body), "GET", "Accept-Encoding: "+coding))
				}
				lengths := map[int]bool{}
				for i, s := range streams {
					if cl := s.Header().Get("Content-Length"); cl != "" {
						t.Errorf("%s %d B: stream %d has Content-Length %s, want a streamed response", coding, size, i, cl)
					}
					if !bytes.Equal(decodeBody(t, coding, s.Body.Bytes()), body) {
						t.Errorf("%s %d B: padded stream %d does not decode to the original", coding, size, i)
					}
					if extra := s.Body.Len() - a.Body.Len(); extra < 1 || extra > jitter+overhead {
						t.Errorf("%s %d B: stream %d: padding added %d bytes, want 1 to %d", coding, size, i, extra, jitter+overhead)
					}
					lengths[s.Body.Len()] = true
				}
				if len(lengths) < 2 {
					t.Errorf("%s %d B: %d streams of the same body all got %d bytes; want a random amount of padding each", coding, size, len(streams), b.Body.Len())
				}
			}
		}
	}
}

// One large Write without a Content-Type is still sniffed from its
// uncompressed bytes, and compressed.
func TestLargeSingleWriteIsSniffedAndCompressed(t *testing.T) {
	body := append([]byte("<!DOCTYPE html>"), sampleText(300<<10)...)
	rec := serve(t, mustNew(t, Config{}), writeBody("", body), "GET", "Accept-Encoding: gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%s", describe(rec))
	}
	if !bytes.Equal(decodeBody(t, "gzip", rec.Body.Bytes()), body) {
		t.Fatal("decoded body differs")
	}
}

// A HEAD handler that only sets headers gets what GET would.
func TestHEADWithoutWriteMatchesGET(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "8192")
		if r.Method == http.MethodGet {
			w.Write(sampleText(8192))
		}
	}
	m := mustNew(t, Config{})
	get := serve(t, m, h, "GET", "Accept-Encoding: gzip")
	head := serve(t, m, h, "HEAD", "Accept-Encoding: gzip")
	for _, name := range []string{"Content-Encoding", "Vary"} {
		if get.Header().Get(name) != head.Header().Get(name) || head.Header().Get(name) == "" {
			t.Errorf("%s: GET %q, HEAD %q", name, get.Header().Get(name), head.Header().Get(name))
		}
	}
}

// A body of exactly BufferSize bytes is still whole: it gets Content-Length.
func TestBodyOfExactlyBufferSizeIsWhole(t *testing.T) {
	rec := serve(t, mustNew(t, Config{BufferSize: 8192}), writeBody("text/plain", sampleText(8192)), "GET", "Accept-Encoding: zstd")
	if rec.Header().Get("Content-Length") == "" {
		t.Fatalf("%s", describe(rec))
	}
}
