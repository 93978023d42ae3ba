package httpfield

import "testing"

// RFC 9110 §5.6.1: a list element is found whatever its case, the white
// space around it, empty elements beside it, or the field line it is on.
func TestHasTokenFindsListElementsAcrossLinesAndCase(t *testing.T) {
	for _, c := range []struct {
		lines []string
		token string
		want  bool
	}{
		{[]string{"Upgrade"}, "upgrade", true},
		{[]string{"keep-alive, Upgrade"}, "upgrade", true},
		{[]string{"keep-alive", " upgrade "}, "upgrade", true},
		{[]string{",, no-transform ,"}, "no-transform", true},
		{[]string{"max-age=60, no-transform"}, "no-transform", true},
		{[]string{"keep-alive"}, "upgrade", false},
		{[]string{"upgrades"}, "upgrade", false},
		{[]string{"no-transform=1"}, "no-transform", false},
		{nil, "upgrade", false},
		{[]string{""}, "upgrade", false},
	} {
		if got := HasToken(c.lines, c.token); got != c.want {
			t.Errorf("HasToken(%q, %q) = %v, want %v", c.lines, c.token, got, c.want)
		}
	}
}

// HasToken is called on every request (Cache-Control, Connection); it must
// not allocate.
func TestHasTokenAllocatesNothing(t *testing.T) {
	lines := []string{"max-age=60, Private", "no-transform"}
	if n := testing.AllocsPerRun(100, func() { HasToken(lines, "no-transform") }); n != 0 {
		t.Errorf("HasToken allocated %v times per call, want 0", n)
	}
}

// MediaType gives what a Types filter is documented to receive: lower case,
// without parameters or the white space around them, and the common value
// as it is.
func TestMediaTypeLowersAndDropsParameters(t *testing.T) {
	for _, c := range []struct{ contentType, want string }{
		{"application/json", "application/json"},
		{"", ""},
		{"text/html; charset=utf-8", "text/html"},
		{"Text/HTML;charset=UTF-8", "text/html"},
		{" application/ld+json ", "application/ld+json"},
		{"\ttext/plain\r\n", "text/plain"},
		{"\u00a0text/css", "text/css"}, // TrimSpace takes Unicode spaces too
		{"image/svg+xml;", "image/svg+xml"},
		{"APPLICATION/JSON", "application/json"},
	} {
		if got := MediaType(c.contentType); got != c.want {
			t.Errorf("MediaType(%q) = %q, want %q", c.contentType, got, c.want)
		}
	}
}
