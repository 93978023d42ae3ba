package negotiate

import (
	"net/http"
	"testing"
)

var serverOrder = []string{"zstd", "br", "gzip", "deflate"}

type selectCase struct {
	name   string
	lines  []string // nil: no Accept-Encoding field
	offers []string // nil: serverOrder
	want   string
	wantOK bool
}

// checkSelect runs each case through all three ways of selecting (Accept,
// the header fast path and the reference model) and wants the same answer.
func checkSelect(t *testing.T, cases []selectCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			offers := c.offers
			if offers == nil {
				offers = serverOrder
			}
			got, ok := Parse(c.lines).Select(offers...)
			if got != c.want || ok != c.wantOK {
				t.Errorf("Parse(%q).Select(%q) = %q, %v; want %q, %v", c.lines, offers, got, ok, c.want, c.wantOK)
			}
			h := http.Header{}
			if c.lines != nil {
				h["Accept-Encoding"] = c.lines
			}
			if got, ok := Select(h, offers...); got != c.want || ok != c.wantOK {
				t.Errorf("Select(header %q, %q) = %q, %v; want %q, %v", c.lines, offers, got, ok, c.want, c.wantOK)
			}
			if got, ok := refSelect(c.lines, offers); got != c.want || ok != c.wantOK {
				t.Errorf("reference model disagrees with the test case: %q, %v", got, ok)
			}
		})
	}
}

// RFC 9110 §12.4.2: the highest weight wins; q=1 when absent.
func TestHighestQualityWins(t *testing.T) {
	checkSelect(t, []selectCase{
		{"all equal, server order", []string{"gzip, deflate, br, zstd"}, nil, "zstd", true},
		{"client weights", []string{"gzip;q=1.0, br;q=0.9, zstd;q=0.8"}, nil, "gzip", true},
		{"absent q is 1", []string{"br;q=0.999, gzip"}, nil, "gzip", true},
		{"three decimals", []string{"br;q=0.001, gzip;q=0.002"}, nil, "gzip", true},
		{"server order breaks ties", []string{"gzip;q=0.5, br;q=0.5"}, nil, "br", true},
		{"only offered codings count", []string{"compress, gzip;q=0.1"}, nil, "gzip", true},
		{"server prefers gzip", []string{"br, gzip"}, []string{"gzip", "br"}, "gzip", true},
	})
}

// RFC 9110 §12.4.2: q=0 means "not acceptable".
func TestQZeroRefuses(t *testing.T) {
	checkSelect(t, []selectCase{
		{"refused coding", []string{"zstd;q=0, br"}, nil, "br", true},
		{"all refused", []string{"zstd;q=0, br;q=0.000, gzip;q=0, deflate;q=0."}, nil, "", true},
	})
}

// RFC 9110 §12.5.3: "*" matches any coding not listed, and only those.
func TestStarCoversUnlistedCodings(t *testing.T) {
	checkSelect(t, []selectCase{
		{"star alone", []string{"*"}, nil, "zstd", true},
		{"star weight", []string{"gzip;q=0.5, *;q=0.8"}, nil, "zstd", true},
		{"listed beats star", []string{"*;q=0.1, gzip"}, nil, "gzip", true},
		{"explicit refusal beats star", []string{"zstd;q=0, br;q=0, *"}, nil, "gzip", true},
		{"star refuses the rest", []string{"*;q=0, deflate;q=0.2"}, nil, "deflate", true},
		{"first star counts", []string{"*;q=0.3, *;q=0", "br;q=0.2"}, nil, "zstd", true},
	})
}

// RFC 9842 §4-5: dictionary codings need a dictionary the client names, so
// "*" must not select them.
func TestStarNeverSelectsDictionaryCodings(t *testing.T) {
	checkSelect(t, []selectCase{
		{"star", []string{"*"}, []string{"dcz", "dcb", "gzip"}, "gzip", true},
		{"explicit dcz", []string{"dcz, gzip"}, []string{"dcz", "gzip"}, "dcz", true},
		{"only dictionary offers", []string{"*"}, []string{"dcz"}, "", true},
	})
}

// RFC 9110 §12.5.3: identity is acceptable unless "identity;q=0", or "*;q=0"
// with no identity entry, excludes it.
func TestIdentityRules(t *testing.T) {
	checkSelect(t, []selectCase{
		{"nothing offered acceptable", []string{"compress"}, nil, "", true},
		{"identity refused, coding ok", []string{"identity;q=0, gzip"}, nil, "gzip", true},
		{"identity refused, nothing else", []string{"identity;q=0"}, nil, "", false},
		{"star zero excludes identity", []string{"*;q=0"}, nil, "", false},
		{"star zero but identity listed", []string{"*;q=0, identity"}, nil, "", true},
		{"identity preferred over coding", []string{"gzip;q=0.5, identity"}, nil, "", true},
		{"coding wins identity tie", []string{"gzip, identity"}, nil, "gzip", true},
		{"implicit identity ranks last", []string{"gzip;q=0.001"}, nil, "gzip", true},
		{"identity offered by the server", []string{"identity;q=0.9, gzip;q=0.5"}, []string{"gzip", "identity"}, "", true},
		{"star weight covers identity", []string{"gzip;q=0.1, *;q=0.5"}, []string{"gzip"}, "", true},
		{"identity case", []string{"IDENTITY;Q=0"}, []string{"gzip"}, "", false},
	})
}

// Absent field: identity (a practical reading of RFC 9110 §12.5.3, since such
// clients often cannot decode). Empty field: the client wants no coding.
func TestAbsentOrEmptyFieldMeansIdentity(t *testing.T) {
	checkSelect(t, []selectCase{
		{"absent", nil, nil, "", true},
		{"empty", []string{""}, nil, "", true},
		{"only commas", []string{" , ,, "}, nil, "", true},
	})
	if Parse(nil).Present() || !Parse([]string{""}).Present() {
		t.Error("Present must tell an absent field from an empty one")
	}
}

// RFC 9110 §5.3: several field lines are one list, in order; §5.6.1: empty
// list elements are allowed.
func TestSeveralLinesAreOneList(t *testing.T) {
	checkSelect(t, []selectCase{
		{"second line", []string{"compress", "br"}, nil, "br", true},
		{"first listing wins across lines", []string{"gzip;q=0.2", "gzip, br;q=0.1"}, []string{"gzip", "br"}, "gzip", true},
		{"empty elements", []string{",,gzip;q=0.5,, ,", ", br;q=0.4"}, nil, "gzip", true},
	})
}

// RFC 9110 §8.4.1 and §5.6.2: codings and parameter names are
// case-insensitive; x-gzip is gzip.
func TestCaseAndAliases(t *testing.T) {
	checkSelect(t, []selectCase{
		{"upper case", []string{"GZIP;Q=0.5, Br;q=0.4"}, nil, "gzip", true},
		{"x-gzip", []string{"x-gzip"}, nil, "gzip", true},
		{"x-gzip refused", []string{"x-gzip;q=0, *"}, []string{"gzip", "deflate"}, "deflate", true},
		{"server spelling returned", []string{"gzip"}, []string{"GZip"}, "GZip", true},
		{"not a prefix match", []string{"gzipx, xgzip, x-br"}, nil, "", true},
	})
}

// RFC 9110 §5.6.1.2: a recipient skips malformed elements; the request goes on.
func TestMalformedElementsAreSkipped(t *testing.T) {
	checkSelect(t, []selectCase{
		{"q above one", []string{"zstd;q=1.5, br;q=0.5"}, nil, "br", true},
		{"q four decimals", []string{"zstd;q=0.0001, br;q=0.1"}, nil, "br", true},
		{"1.001", []string{"zstd;q=1.001, br;q=0.1"}, nil, "br", true},
		{"negative q", []string{"zstd;q=-1, br;q=0.1"}, nil, "br", true},
		{"q not a number", []string{"zstd;q=high, br;q=0.1"}, nil, "br", true},
		{"space around =", []string{"zstd;q = 0.5, br;q=0.1"}, nil, "br", true},
		{"two weights", []string{"zstd;q=0.5;q=1, br;q=0.1"}, nil, "br", true},
		{"quoted q", []string{`zstd;q="1", br;q=0.1`}, nil, "br", true},
		{"missing coding", []string{";q=1, br;q=0.1"}, nil, "br", true},
		{"junk bytes", []string{"z\x00std, br;q=0.1, gzip/1"}, nil, "br", true},
		{"unterminated quote", []string{`br;q=0.1, zstd;a="x, gzip`}, nil, "br", true},
		{"bare parameter", []string{"zstd;fast, br;q=0.1"}, nil, "br", true},
		{"trailing semicolon", []string{"zstd;, br;q=0.1"}, nil, "br", true},
	})
}

// Parameters other than q are outside the grammar but harmless: accepted and
// ignored when well formed, quoted commas included.
func TestUnknownParametersIgnored(t *testing.T) {
	checkSelect(t, []selectCase{
		{"token parameter", []string{"zstd;level=9;q=0.5, br;q=0.4"}, nil, "zstd", true},
		{"quoted comma", []string{`zstd;x="a, br";q=0.5, br;q=0.4`}, nil, "zstd", true},
		{"quoted escape", []string{`br;x="\"q=1, zstd", zstd;q=0.1`}, nil, "br", true},
		{"whitespace", []string{" zstd \t; q=0.5 ;\tv=1 , br ;q=0.4 "}, nil, "zstd", true},
	})
}

// The headers that browsers and common clients send.
func TestRealClientHeaders(t *testing.T) {
	checkSelect(t, []selectCase{
		{"Chromium and Firefox", []string{"gzip, deflate, br, zstd"}, nil, "zstd", true},
		{"Safari", []string{"gzip, deflate, br"}, nil, "br", true},
		{"curl --compressed", []string{"deflate, gzip, br, zstd"}, nil, "zstd", true},
		{"Go http.Client", []string{"gzip"}, nil, "gzip", true},
		{"Python requests", []string{"gzip, deflate"}, nil, "gzip", true},
		{"weighted with star", []string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}, nil, "br", true},
	})
}

func TestQualityReportsWeights(t *testing.T) {
	a := Parse([]string{"br;q=0.8, gzip;q=0, *;q=0.25", "x-gzip"})
	for coding, want := range map[string]int{
		"br": 800, "BR": 800, "gzip": 0, "x-gzip": 0, "zstd": 250, "dcz": 0, "identity": 250, "": 250,
	} {
		if got := a.Quality(coding); got != want {
			t.Errorf("Quality(%q) = %d, want %d", coding, got, want)
		}
	}
	if got := Parse([]string{"gzip"}).Quality("identity"); got != 1 {
		t.Errorf("unlisted identity: Quality = %d, want 1 (acceptable, lowest)", got)
	}
}

func TestParseQValue(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "0.": 0, "0.5": 500, "0.05": 50, "0.123": 123, "1": 1000, "1.": 1000, "1.000": 1000} {
		if got, ok := parseQValue(s); !ok || got != want {
			t.Errorf("parseQValue(%q) = %d, %v; want %d, true", s, got, ok, want)
		}
	}
	for _, s := range []string{"", ".5", "2", "1.1", "0.1234", "0,5", "01", "1e0", "0.5 "} {
		if got, ok := parseQValue(s); ok {
			t.Errorf("parseQValue(%q) = %d, true; want not a qvalue", s, got)
		}
	}
}

// The fast path must not allocate for any header, browsers' or not.
func TestSelectDoesNotAllocate(t *testing.T) {
	h := http.Header{"Accept-Encoding": {`gzip;q=0.5, x-gzip, br;x="a,b";q=0.9`, "*;q=0.1, identity;q=0"}}
	if n := testing.AllocsPerRun(100, func() { Select(h, "zstd", "br", "gzip") }); n != 0 {
		t.Errorf("Select allocated %.0f times per call, want 0", n)
	}
}
