package negotiate

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzSelect holds the allocation-free parser to the reference model of
// RFC 9110 §12.5.3 in reference_test.go, for any header text and any server
// preference list. Lines of the header are separated by "\n" in the input,
// offers by ",".
func FuzzSelect(f *testing.F) {
	for _, s := range []struct{ header, offers string }{
		{"gzip, deflate, br, zstd", "zstd,br,gzip,deflate"},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", "zstd,br,gzip"},
		{"identity;q=0\n*;q=0", "gzip"},
		{`x-gzip;a="b,c";q=0.5, *;q=0`, "gzip,identity"},
		{"GZIP;Q=0.001,,\t,br;q=1.000", "br,gzip,dcz"},
		{"", ""},
	} {
		f.Add(s.header, s.offers)
	}
	f.Fuzz(func(t *testing.T, header, offerList string) {
		if len(header) > 8<<10 || len(offerList) > 1<<10 {
			return // the reference model is slow; larger inputs find nothing new
		}
		lines := strings.Split(header, "\n")
		var offers []string
		if offerList != "" {
			offers = strings.Split(offerList, ",")
		}
		want, wantOK := refSelect(lines, offers)
		got, ok := Parse(lines).Select(offers...)
		if got != want || ok != wantOK {
			t.Fatalf("Select(%q) over %q = %q, %v; reference says %q, %v", offers, lines, got, ok, want, wantOK)
		}
		if got, ok := Select(http.Header{"Accept-Encoding": lines}, offers...); got != want || ok != wantOK {
			t.Fatalf("header Select(%q) over %q = %q, %v; reference says %q, %v", offers, lines, got, ok, want, wantOK)
		}
		elems := refParse(lines)
		for _, o := range offers {
			wq, _ := refQuality(elems, o)
			if q := Parse(lines).Quality(o); q != wq {
				t.Fatalf("Quality(%q) over %q = %d; reference says %d", o, lines, q, wq)
			}
		}
	})
}
