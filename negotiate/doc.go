// Package negotiate implements content-coding negotiation for HTTP: reading
// the Accept-Encoding request field (RFC 9110 §12.5.3), choosing a coding the
// server can produce, and keeping the Vary response field right.
//
// It uses only the standard library and can be imported on its own, by a
// handler that stores its own variants of a representation or by another
// middleware:
//
//	coding, ok := negotiate.Select(r.Header, "zstd", "br", "gzip")
//	negotiate.AddVary(w.Header(), "Accept-Encoding")
//
// Select allocates nothing for any header; Parse and the methods of Accept are
// there when a handler needs the weights themselves. Parsing is tolerant, as
// RFC 9110 §5.6.1.2 asks: a malformed list element is skipped, never an error
// that fails the request. See the examples for complete handlers.
package negotiate
