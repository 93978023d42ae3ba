package encoding

import "testing"

// mediaType gives Types what it documents: lower case, without parameters
// or the white space around them, and the common value as it is.
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
		if got := mediaType(c.contentType); got != c.want {
			t.Errorf("mediaType(%q) = %q, want %q", c.contentType, got, c.want)
		}
	}
}
