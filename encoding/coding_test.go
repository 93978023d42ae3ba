package encoding

import (
	"net/http"
	"testing"
)

// countingDictionaries is a Dictionaries whose coding is gzip under the
// name "dcz", that counts its calls and permits what permit says.
type countingDictionaries struct {
	permit           bool
	lookups, permits int
}

type fakeDCZ struct{ Codec }

func (fakeDCZ) Name() string { return "dcz" }

func (d *countingDictionaries) Lookup(r *http.Request) (Codec, string) {
	d.lookups++
	if r.Header.Get("Available-Dictionary") == "" {
		return nil, ""
	}
	return fakeDCZ{Gzip()}, "id1"
}

func (d *countingDictionaries) Permit(*http.Request, http.Header) bool {
	d.permits++
	return d.permit
}

// TestCodingDecidedOncePerRequest: the coding, dictionary coding included,
// is chosen in one place: the Dictionaries are looked up once before the
// handler runs and asked once, when the header is final, whether the
// response may use the dictionary, on every path a response can take
// (sent whole, streamed, flushed, a handler's 304, HEAD, a 304 the
// middleware answers, no body at all), and the response goes out in the
// coding that one decision chose.
func TestCodingDecidedOncePerRequest(t *testing.T) {
	body := sampleText(4 << 10)
	handlers := map[string]http.HandlerFunc{
		"whole": writeBody("text/plain", body),
		"streamed": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			for range 40 {
				w.Write(body)
			}
		},
		"flushed": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(body[:100])
			w.(http.Flusher).Flush()
			w.Write(body)
		},
		"handler's 304": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusNotModified)
		},
		"empty": func(w http.ResponseWriter, r *http.Request) {},
		"etag": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"v1"`)
			writeBody("text/plain", body)(w, r)
		},
	}
	for _, permit := range []bool{true, false} {
		for name, h := range handlers {
			for _, method := range []string{"GET", "HEAD"} {
				d := &countingDictionaries{permit: permit}
				m := mustNew(t, Config{Dictionaries: d})
				header := []string{"Accept-Encoding: gzip, dcz", "Available-Dictionary: :x:"}
				if name == "etag" {
					header = append(header, `If-None-Match: "v1-dcz-id1"`)
				}
				rec := serve(t, m, h, method, header...)
				if d.lookups != 1 || d.permits > 1 {
					t.Errorf("%s %s, permit %v: %d lookups and %d permits, want 1 and at most 1", method, name, permit, d.lookups, d.permits)
				}
				got := rec.Header().Get("Content-Encoding")
				want := "gzip"
				if permit {
					want = "dcz"
				}
				if got != "" && got != want {
					t.Errorf("%s %s, permit %v: Content-Encoding %q, want %q", method, name, permit, got, want)
				}
				if name == "whole" && got != want {
					t.Errorf("%s whole, permit %v: Content-Encoding %q, want %q", method, permit, got, want)
				}
			}
		}
	}
}

// TestDictionaryCodingNeedsItsNameAtNoLowerWeight_RFC9842_6_1: the
// dictionary coding is a candidate only when Accept-Encoding names it, at
// no lower a weight than the coding negotiated without it; "*" never
// stands for it.
func TestDictionaryCodingNeedsItsNameAtNoLowerWeight_RFC9842_6_1(t *testing.T) {
	for accept, want := range map[string]string{
		"gzip, dcz":           "dcz",
		"gzip;q=0.5, dcz":     "dcz",
		"gzip, dcz;q=0.5":     "gzip",
		"gzip, *":             "gzip",
		"dcz":                 "dcz",
		"dcz;q=0, gzip":       "gzip",
		"identity;q=0.1, dcz": "dcz",
	} {
		d := &countingDictionaries{permit: true}
		m := mustNew(t, Config{Dictionaries: d, Codings: []Coding{{Codec: Gzip()}}})
		rec := serve(t, m, writeBody("text/plain", sampleText(4<<10)), "GET", "Accept-Encoding: "+accept, "Available-Dictionary: :x:")
		if got := rec.Header().Get("Content-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", accept, got, want)
		}
	}
}
