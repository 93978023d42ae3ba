package dictionary

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/dcztest"
	"github.com/squeezehttp/squeeze/internal/sfv"
)

// RFC 9842 §5: the 8-byte skippable-frame magic, the dictionary's SHA-256,
// then a zstd frame that decodes with the dictionary as raw content and
// names no dictionary ID.
func TestDCZFramingPerRFC9842Section5(t *testing.T) {
	v1, v2 := versionedScript(1, 64<<10), versionedScript(2, 64<<10)
	d := New(v1)
	body, err := AppendDCZ([]byte("prefix"), v2, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(body, []byte("prefix")) {
		t.Fatal("AppendDCZ did not append to dst")
	}
	body = body[len("prefix"):]
	magic := []byte{0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00}
	sum := sha256.Sum256(v1)
	if !bytes.Equal(body[:8], magic) || !bytes.Equal(body[8:40], sum[:]) {
		t.Fatalf("header % x, want the magic % x and the SHA-256 % x", body[:40], magic, sum)
	}
	var fh zstd.Header
	if err := fh.Decode(body[40:]); err != nil {
		t.Fatalf("no zstd frame after the header: %v", err)
	}
	if fh.DictionaryID != 0 {
		t.Errorf("frame names dictionary ID %d; a raw dictionary has none", fh.DictionaryID)
	}
	if limit := uint64(8 << 20); fh.WindowSize > limit {
		t.Errorf("frame window %d above RFC 9842 §5's %d for a %d-byte dictionary", fh.WindowSize, limit, len(v1))
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(), zstd.WithDecoderDictRaw(0, v1))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	// A plain zstd decoder skips the header as the skippable frame it is.
	got, err := dec.DecodeAll(body, nil)
	if err != nil || !bytes.Equal(got, v2) {
		t.Fatalf("decoding with the dictionary: %d bytes, %v; want the %d of build 2", len(got), err, len(v2))
	}
	if zlen := len(mustZstd(t, v2)); len(body)*4 > zlen {
		t.Errorf("dcz of build 2 is %d bytes, not under a quarter of zstd's %d", len(body), zlen)
	}
}

// RFC 9842 §5: the window stays within max(8 MB, 1.25 × dictionary), at
// most 128 MB.
func TestDCZWindowWithinRFCLimit(t *testing.T) {
	for _, tt := range []struct{ dict, want int }{
		{0, 8 << 20},
		{1 << 20, 8 << 20},
		{8 << 20, 8 << 20}, // 10 MB limit: no power of two fits above 8 MB
		{13 << 20, 16 << 20},
		{100 << 20, 64 << 20},
		{200 << 20, 128 << 20},
	} {
		limit := min(max(8<<20, tt.dict+tt.dict/4), 128<<20)
		got := dczWindow(tt.dict)
		if got != tt.want || got > limit || got&(got-1) != 0 {
			t.Errorf("dczWindow(%d) = %d, want %d (limit %d)", tt.dict, got, tt.want, limit)
		}
		// The encoders' own window: room for the dictionary and a build
		// twice its size, never past the limit.
		enc := dczEncoderWindow(tt.dict)
		if enc > got || enc&(enc-1) != 0 || enc < min(2*tt.dict, got) {
			t.Errorf("dczEncoderWindow(%d) = %d, want a power of two from %d to %d", tt.dict, enc, min(2*tt.dict, got), got)
		}
	}
}

// The streaming encoder makes the same framing as AppendDCZ, the header
// once, also across Flush and Reset, and Reset(nil) between streams.
func TestDCZStreamingWriter(t *testing.T) {
	v1, v2 := versionedScript(1, 32<<10), versionedScript(2, 200<<10)
	d := New(v1)
	w, err := codec{d: d, level: defaultLevel}.NewWriter(nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		var out bytes.Buffer
		w.Reset(&out)
		for chunk := range bytes.SplitSeq(v2, []byte("registry")) {
			if _, err := w.Write(chunk); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte("registry")); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := append(bytes.Clone(v2), "registry"...)
		got, err := dcztest.Decode(out.Bytes(), d.Bytes(), 1<<20)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("round %d: streamed dcz decodes to %d bytes, %v; want %d", round, len(got), err, len(want))
		}
		// As the middleware releases it: the zstd encoder goes back to the
		// dictionary, and the writer fails rather than write without one.
		w.Reset(nil)
		if _, err := w.Write([]byte("late")); err == nil {
			t.Fatalf("round %d: Write after Reset(nil) succeeded", round)
		}
	}
}

func TestDecodeDCZRefusesOtherDictionary(t *testing.T) {
	d1, d2 := New([]byte("one dictionary")), New([]byte("another"))
	body, err := AppendDCZ(nil, []byte("hello hello hello"), d1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dcztest.Decode(body, d2.Bytes(), 1<<20); !errors.Is(err, dcztest.ErrHeader) {
		t.Fatalf("decoding with the wrong dictionary: %v, want dcztest.ErrHeader", err)
	}
	if _, err := dcztest.Decode(body[:30], d1.Bytes(), 1<<20); !errors.Is(err, dcztest.ErrHeader) {
		t.Fatalf("decoding a truncated header: %v, want dcztest.ErrHeader", err)
	}
}

func TestDictionaryStoreKeysByHashAndEvictsLeastRecentlyUsed(t *testing.T) {
	s := NewStore(30)
	a, _ := s.Add(bytes.Repeat([]byte("a"), 10))
	b, _ := s.Add(bytes.Repeat([]byte("b"), 10))
	again, _ := s.Add(bytes.Repeat([]byte("a"), 10))
	if again != a || s.Bytes() != 20 {
		t.Fatalf("adding the same bytes again made another dictionary (%v) or counted them twice (%d bytes)", again != a, s.Bytes())
	}
	s.Lookup(b.Hash())                           // b, then a, are the most recent
	s.Lookup(a.Hash())                           //
	c, _ := s.Add(bytes.Repeat([]byte("c"), 15)) // 35 > 30: b goes
	if s.Lookup(b.Hash()) != nil || s.Lookup(a.Hash()) != a || s.Lookup(c.Hash()) != c {
		t.Fatal("the store did not evict the least recently used dictionary")
	}
	if s.Bytes() != 25 {
		t.Fatalf("store holds %d bytes, want 25", s.Bytes())
	}
	if _, err := s.Add(make([]byte, 31)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("adding more than the budget: %v, want ErrTooLarge", err)
	}
	s.Remove(a.Hash())
	if s.Lookup(a.Hash()) != nil || s.Bytes() != 15 {
		t.Fatal("Remove left the dictionary in the store")
	}
}

func TestAvailableDictionaryHeader(t *testing.T) {
	sum := sha256.Sum256([]byte("dictionary"))
	b64 := ":" + stdBase64(sum[:]) + ":"
	for _, tt := range []struct {
		name  string
		lines []string
		ok    bool
	}{
		{"byte sequence", []string{b64}, true},
		{"with parameters", []string{b64 + ";x=1"}, true},
		{"absent", nil, false},
		{"two lines", []string{b64, b64}, false},
		{"list of two", []string{b64 + ", " + b64}, false},
		{"not 32 bytes", []string{":AAAA:"}, false},
		{"a string", []string{`"` + stdBase64(sum[:]) + `"`}, false},
		{"unwrapped base64", []string{stdBase64(sum[:])}, false},
	} {
		h := http.Header{}
		if tt.lines != nil {
			h["Available-Dictionary"] = tt.lines
		}
		got, ok := Available(h)
		if ok != tt.ok || ok && got != sum {
			t.Errorf("%s: Available(%q) = %x, %v; want ok=%v", tt.name, tt.lines, got, ok, tt.ok)
		}
	}
	id, ok := ID(http.Header{"Dictionary-Id": {`"/v1/main.js 33a6"`}})
	if !ok || id != "/v1/main.js 33a6" {
		t.Errorf("DictionaryID = %q, %v", id, ok)
	}
	if _, ok := ID(http.Header{"Dictionary-Id": {`"` + strings.Repeat("x", 1025) + `"`}}); ok {
		t.Error("DictionaryID accepted an id longer than RFC 9842's 1024 characters")
	}
	if _, ok := ID(http.Header{"Dictionary-Id": {"token"}}); ok {
		t.Error("DictionaryID accepted a token; it is a String")
	}
}

func stdBase64(b []byte) string {
	s, _ := sfv.SerializeItem(sfv.Item{Kind: sfv.Bytes, Bytes: b})
	return strings.Trim(s, ":")
}

func TestSetUseAsDictionary(t *testing.T) {
	h := http.Header{}
	err := SetUseAs(h, UseAs{Match: "/app/*/main.js", MatchDest: []string{"script"}, ID: `v"1`})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.Get("Use-As-Dictionary"), `match="/app/*/main.js", match-dest=("script"), id="v\"1"`; got != want {
		t.Errorf("Use-As-Dictionary: %s, want %s", got, want)
	}
	if got := h.Get("Cache-Control"); got != "max-age=31536000" {
		t.Errorf("Cache-Control %q, want the default year of freshness that keeps the dictionary usable", got)
	}
	h = http.Header{"Cache-Control": {"public, max-age=60"}}
	if err := SetUseAs(h, UseAs{Match: "/x"}); err != nil || h.Get("Cache-Control") != "public, max-age=60" {
		t.Errorf("the handler's Cache-Control became %q (%v); it should be left alone", h.Get("Cache-Control"), err)
	}
	for _, u := range []UseAs{{}, {Match: "/app/(\\d+)/x.js"}, {Match: "/ü"}, {Match: "/x", ID: strings.Repeat("i", 1025)}} {
		if err := SetUseAs(http.Header{}, u); err == nil {
			t.Errorf("SetUseAs(%+v) succeeded; want an error", u)
		}
	}
	if err := SetUseAs(http.Header{"Cache-Control": {"no-store"}}, UseAs{Match: "/x"}); !errors.Is(err, ErrNotFresh) {
		t.Errorf("no-store: %v, want ErrNotFresh", err)
	}
}

// RFC 9842 §2.2.1: a client uses a dictionary only while it is fresh.
// Zero MaxAge means DefaultMaxAge; a negative one is a mistake, not the
// default, and one under a second would be written max-age=0, never fresh.
func TestSetUseAsMaxAgeZeroIsTheDefaultRFC9842(t *testing.T) {
	for _, tc := range []struct {
		maxAge time.Duration
		want   string // Cache-Control, or "" for an error naming UseAs.MaxAge
	}{
		{0, "max-age=31536000"},
		{time.Hour, "max-age=3600"},
		{time.Second, "max-age=1"},
		{-time.Hour, ""},
		{time.Millisecond, ""},
	} {
		h := http.Header{}
		err := SetUseAs(h, UseAs{Match: "/x", MaxAge: tc.maxAge})
		switch {
		case tc.want == "" && (err == nil || !strings.Contains(err.Error(), "UseAs.MaxAge")):
			t.Errorf("MaxAge %v: error %v, want one naming UseAs.MaxAge", tc.maxAge, err)
		case tc.want != "" && (err != nil || h.Get("Cache-Control") != tc.want):
			t.Errorf("MaxAge %v: Cache-Control %q (err %v), want %q", tc.maxAge, h.Get("Cache-Control"), err, tc.want)
		}
	}
}

// A negative budget is a misconfiguration, found where the store is made,
// never silently the default.
func TestNewStoreRefusesNegativeBudget(t *testing.T) {
	if s := NewStore(0); s.budget != DefaultStoreBytes {
		t.Errorf("NewStore(0) budget %d, want DefaultStoreBytes", s.budget)
	}
	defer func() {
		if msg, _ := recover().(string); !strings.HasPrefix(msg, "dictionary: NewStore: maxBytes -1") {
			t.Errorf("NewStore(-1) panicked with %q; want a dictionary: message naming maxBytes", msg)
		}
	}()
	NewStore(-1)
}
