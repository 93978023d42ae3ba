package encoding

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestZeroBufferSizeIsTheDocumentedDefault enforces the default that
// Config.BufferSize documents: with the field left at zero, a body of
// DefaultBufferSize (128 KiB) bytes is still compressed whole and sent with
// a Content-Length, and one byte more streams.
func TestZeroBufferSizeIsTheDocumentedDefault(t *testing.T) {
	if DefaultBufferSize != 128<<10 {
		t.Fatalf("DefaultBufferSize is %d; Config.BufferSize documents 128 KiB", DefaultBufferSize)
	}
	m := mustNew(t, Config{})
	for _, size := range []int{DefaultBufferSize, DefaultBufferSize + 1} {
		rec := serve(t, m, writeBody("text/plain", sampleText(size)), "GET", "Accept-Encoding: gzip")
		whole := rec.Header().Get("Content-Length") != ""
		if rec.Header().Get("Content-Encoding") != "gzip" || whole != (size <= DefaultBufferSize) {
			t.Errorf("a %d-byte body with BufferSize left at zero: %s; want it gzipped, with a Content-Length only up to %d bytes", size, describe(rec), DefaultBufferSize)
		}
	}
}

// TestZeroMaxRequestSizeIsTheDocumentedDefault enforces the default that
// Config.MaxRequestSize documents: with the field left at zero, a request
// body that decodes to more than DefaultMaxRequestSize (32 MiB) bytes gets
// 413, and the handler reads exactly DefaultMaxRequestSize bytes of it.
func TestZeroMaxRequestSizeIsTheDocumentedDefault(t *testing.T) {
	if DefaultMaxRequestSize != 32<<20 {
		t.Fatalf("DefaultMaxRequestSize is %d; Config.MaxRequestSize documents 32 MiB", DefaultMaxRequestSize)
	}
	m := mustNew(t, Config{DecodeRequests: true})
	payload := zerosIn(t, "gzip", DefaultMaxRequestSize+1<<20, 0, 0)
	var read int64
	counting := func(w http.ResponseWriter, r *http.Request) {
		read, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusBadRequest) // a handler that does not look at the error
	}
	rec := postEncoded(t, m, counting, "gzip", payload)
	if rec.Code != http.StatusRequestEntityTooLarge || read != DefaultMaxRequestSize {
		t.Errorf("a gzip body of %d MiB with MaxRequestSize left at zero: status %d, handler read %d bytes; want 413 after exactly %d", (DefaultMaxRequestSize+1<<20)>>20, rec.Code, read, DefaultMaxRequestSize)
	}
}

// The routes of the codecs follow ownMaxBodies at every level, on both
// sides of each bound; TestOwnDeflateBounds, TestOwnBrotliBounds and
// TestZstdLevelsOneAndThreeDiffer check that the encoders follow the
// routes, TestOwnEncoderRule that the table follows the rule.
func TestOwnRoutesFollowTheTable(t *testing.T) {
	for _, tc := range []struct {
		coding string
		route  func(level, n int) bool
		levels int
	}{{"gzip", ownEncodes, 9}, {"zstd", ownZstd, 22}, {"br", ownBrotli, 11}} {
		for level := 1; level <= tc.levels; level++ {
			bound := ownMaxBody(tc.coding, level)
			if bound > 0 && !tc.route(level, bound) {
				t.Errorf("%s at level %d: a %d-byte body goes to the library, want the own encoder", tc.coding, level, bound)
			}
			if tc.route(level, bound+1) {
				t.Errorf("%s at level %d: a %d-byte body goes to the own encoder, want the library", tc.coding, level, bound+1)
			}
			if bound == 0 && tc.route(level, 0) {
				t.Errorf("%s at level %d: the empty body goes to the own encoder, which serves nothing there", tc.coding, level)
			}
		}
	}
}

// docs/levels.md lists where the own encoders serve: its table is
// ownMaxBodies, levels with the same bound grouped, so that the page does
// not drift from the code.
func TestLevelsDocListsTheOwnTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/levels.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ coding, label string }{{"gzip", "gzip, deflate"}, {"br", "br"}, {"zstd", "zstd"}} {
		levels := ownMaxBodies[c.coding]
		var rows []string
		for lo := 1; lo < len(levels); {
			hi := lo
			for hi+1 < len(levels) && levels[hi+1] == levels[lo] {
				hi++
			}
			if bound := levels[lo]; bound > 0 {
				which := strconv.Itoa(lo)
				switch {
				case hi == lo+1:
					which = fmt.Sprintf("%d, %d", lo, hi)
				case hi > lo:
					which = fmt.Sprintf("%d to %d", lo, hi)
				}
				rows = append(rows, fmt.Sprintf("| %s | %s | %d KiB |", c.label, which, bound>>10))
			}
			lo = hi + 1
		}
		if len(rows) == 0 {
			rows = []string{fmt.Sprintf("| %s | none yet", c.label)}
		}
		for _, row := range rows {
			if !strings.Contains(string(doc), row) {
				t.Errorf("docs/levels.md lacks the row %q of ownMaxBodies", row)
			}
		}
	}
}
