package soak

import "testing"

func TestDisclosureFindsPathsAndInternalErrors(t *testing.T) {
	cases := []struct {
		body string
		want bool
	}{
		{"404 page not found\n", false},
		{"400 bad request: invalid path\n", false},
		{"wsdeflate: Origin \"https://evil.test\" is not allowed\n", false},
		{"open /srv/www/app.js: permission denied", true},
		{"500: stat public/x: no such file or directory", true},
		{"encoding: zstd: unexpected EOF", true},
		{"panic: runtime error: index out of range", true},
		{"failed at handler.go:42", true},
		{"the secret-dir was here", true},
	}
	for _, tc := range cases {
		if got := Disclosure([]byte(tc.body), "secret-dir"); (got != "") != tc.want {
			t.Errorf("Disclosure(%q) = %q, want a disclosure: %t", tc.body, got, tc.want)
		}
	}
}
