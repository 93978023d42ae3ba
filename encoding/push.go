package encoding

import "net/http"

// pushWriter is what a handler is given on a connection that can push
// (HTTP/2, where the server's writer is an http.Pusher): the middleware's
// writer with Push, so that w.(http.Pusher) finds what it would find
// without the middleware.
type pushWriter struct{ *responseWriter }

// Push starts an HTTP/2 server push (RFC 9113 §8.4) on the underlying
// connection. The pushed request is served by the server's handler like
// any other, through the middleware again, and negotiates its own coding
// from the Accept-Encoding net/http copies into it.
func (w pushWriter) Push(target string, opts *http.PushOptions) error {
	return w.rw.(http.Pusher).Push(target, opts)
}

// forHandler returns w as the handler is to see it: with Push when the
// underlying writer has it.
func (w *responseWriter) forHandler() http.ResponseWriter {
	if _, ok := w.rw.(http.Pusher); ok {
		return pushWriter{w}
	}
	return w
}
