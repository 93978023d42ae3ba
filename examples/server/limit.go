package main

import "net/http"

// limit is how many requests of a kind may be served at once: a request
// beyond it is answered 503 at once instead of holding more memory (an
// encoder, a connection's compression state) than the bound allows.
type limit chan struct{}

func newLimit(n int) limit { return make(limit, n) }

// enter takes a place for a request of what, or answers 503 and reports
// false when none is free. A true enter is paired with leave.
func (l limit) enter(w http.ResponseWriter, what string) bool {
	select {
	case l <- struct{}{}:
		return true
	default:
		w.Header().Set("Retry-After", "5")
		http.Error(w, "503 too many "+what+" at once", http.StatusServiceUnavailable)
		return false
	}
}

func (l limit) leave() { <-l }

// wrap serves h within the limit.
func (l limit) wrap(what string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.enter(w, what) {
			return
		}
		defer l.leave()
		h.ServeHTTP(w, r)
	})
}
