package wsdeflate

import (
	"testing"
	"unicode/utf8"
)

// TestUTF8StreamAgreesWithValidAtEverySplit cuts each input at every pair
// of points: the streaming validator must agree with utf8.Valid on the
// whole.
func TestUTF8StreamAgreesWithValidAtEverySplit(t *testing.T) {
	inputs := []string{
		"", "ascii", "caf\u00e9", "\u20ac\U0001F600x", "\xff", "a\xe2\x82", "\xe2\x82\xac\xac",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xef\xbf\xbd", "\x80\x80\x80\x80", "\xf0\x9f\x98",
	}
	for _, in := range inputs {
		want := utf8.ValidString(in)
		for i := 0; i <= len(in); i++ {
			for j := i; j <= len(in); j++ {
				var v utf8Stream
				got := v.write([]byte(in[:i])) && v.write([]byte(in[i:j])) && v.write([]byte(in[j:])) && v.complete()
				if got != want {
					t.Errorf("%q split at %d and %d: valid %t, want %t", in, i, j, got, want)
				}
			}
		}
	}
}
