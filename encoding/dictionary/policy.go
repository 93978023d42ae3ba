package dictionary

import (
	"net"
	"net/http"
	"strings"
)

// SecureRequest reports whether r came over a secure context as RFC 9842
// §8 requires before a dictionary is used: over TLS, or addressed to
// localhost, which browsers count as potentially trustworthy for
// development (the W3C Secure Contexts spec). Localhost is decided as the
// browser decides it, from the host the request names (Host: localhost,
// *.localhost, 127.0.0.0/8 or [::1]). Behind a proxy that terminates TLS,
// r.TLS is nil: set Config.Secure to trust the proxy instead.
func SecureRequest(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Readable runs the server-side check of RFC 9842 §9.3.3: it
// reports false for a cross-origin request whose response the requesting
// page could not read (no CORS grant), where the size of a
// dictionary-compressed response would leak what the page may not see.
// resp is the response's header, for Access-Control-Allow-Origin.
func Readable(r *http.Request, resp http.Header) bool {
	site := r.Header["Sec-Fetch-Site"]
	if len(site) == 0 || strings.TrimSpace(site[0]) == "same-origin" {
		return true
	}
	mode := r.Header["Sec-Fetch-Mode"]
	if len(mode) == 0 {
		return true
	}
	switch strings.TrimSpace(mode[0]) {
	case "navigate", "same-origin":
		return true
	case "cors":
		allow := resp["Access-Control-Allow-Origin"]
		origin := r.Header["Origin"]
		if len(allow) == 0 || len(origin) == 0 {
			return false
		}
		a := strings.TrimSpace(allow[0])
		return a == "*" || a == strings.TrimSpace(origin[0])
	}
	return false
}

// PublicResponse is the default test of which responses may be compressed
// with a dictionary: those that HTTP already lets a shared cache hand to
// anyone (RFC 9111 §3), so that they cannot hold one user's secrets, which
// a dictionary's matches could reveal (RFC 9842 §9.2). That is a response
// whose Cache-Control says public, s-maxage or max-age, without private or
// no-store, that sets no cookie, to a request without Authorization
// (§3.5: such a response is shareable only when marked public or
// s-maxage).
func PublicResponse(r *http.Request, resp http.Header) bool {
	if resp["Set-Cookie"] != nil {
		return false
	}
	cc := resp["Cache-Control"]
	if hasBare(cc, "private") || hasBare(cc, "no-store") {
		return false
	}
	if hasBare(cc, "public") || hasArgument(cc, "s-maxage") {
		return true
	}
	return r.Header["Authorization"] == nil && hasArgument(cc, "max-age")
}

// hasBare reports whether the Cache-Control lines hold directive without
// an argument (no-store), compared without regard to case.
func hasBare(lines []string, directive string) bool {
	bare, _ := cacheDirective(lines, directive)
	return bare
}

// hasArgument reports whether the Cache-Control lines hold directive with
// an argument (max-age=N), compared without regard to case.
func hasArgument(lines []string, directive string) bool {
	_, withArg := cacheDirective(lines, directive)
	return withArg
}

// cacheDirective reports whether the Cache-Control lines hold directive
// alone, and whether they hold it with an argument.
func cacheDirective(lines []string, directive string) (bare, withArg bool) {
	for _, v := range lines {
		for v != "" {
			var elem string
			elem, v, _ = strings.Cut(v, ",")
			elem = strings.TrimSpace(elem)
			name, _, found := strings.Cut(elem, "=")
			switch {
			case !found && strings.EqualFold(elem, directive):
				bare = true
			case found && strings.EqualFold(strings.TrimSpace(name), directive):
				withArg = true
			}
		}
	}
	return bare, withArg
}
