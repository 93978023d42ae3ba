package soak

import (
	"regexp"
	"strings"
)

// internalMarkers are fragments of Go error and panic text that a client
// should never see: they describe the server, not the request.
var internalMarkers = []string{
	".go:", "goroutine ", "runtime.", "panic", "no such file", "permission denied",
	"open ", "stat ", "lstat ", "readdir", "invalid argument", "unexpected eof",
	"os.root", "path escapes",
}

// decoderError matches the prefix of an error from a decoder library (the
// "flate:" of "flate: corrupt input", not the one of "wsdeflate:").
var decoderError = regexp.MustCompile(`(^|[^a-z])(flate|gzip|zlib|zstd|brotli|decoder):`)

// absolutePath matches an absolute file-system path in running text: a
// slash after a space, quote or bracket (not the "//" of a URL), followed by
// at least two segments.
var absolutePath = regexp.MustCompile(`(^|[\s"'(\[=])/[A-Za-z0-9._-]+/[A-Za-z0-9._-]+`)

// Disclosure returns what in body, an error response sent to a client,
// gives away the server's internals: one of secrets (directory names, error
// texts the test planted), an absolute path, or a fragment of a Go error or
// panic message. It returns "" when body discloses none of these.
func Disclosure(body []byte, secrets ...string) string {
	s := string(body)
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			return "the planted secret " + secret
		}
	}
	if m := absolutePath.FindString(s); m != "" {
		return "the path " + strings.TrimSpace(m)
	}
	lower := strings.ToLower(s)
	if m := decoderError.FindString(lower); m != "" {
		return "decoder error text " + strings.TrimSpace(m)
	}
	for _, m := range internalMarkers {
		if strings.Contains(lower, m) {
			return "internal error text " + m
		}
	}
	return ""
}
