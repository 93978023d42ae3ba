package encoding

import (
	"net/http"
	"sync"

	"github.com/squeezehttp/squeeze/internal/httpfield"
	"github.com/squeezehttp/squeeze/negotiate"
)

// Middleware compresses the responses of the handlers it wraps. It is safe
// for concurrent use; build it once with New and wrap as many handlers as
// needed.
type Middleware struct {
	s *settings
}

// New returns a Middleware configured by cfg, or an error when cfg asks for
// something that cannot work (an unknown level, a coding listed twice).
func New(cfg Config) (*Middleware, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	return &Middleware{s: s}, nil
}

var defaultMiddleware = sync.OnceValue(func() *Middleware {
	m, err := New(Config{})
	if err != nil {
		panic(err) // the defaults are fixed at build time; a failure is a bug here
	}
	return m
})

// Handler wraps h with the recommended configuration, the zero Config.
func Handler(h http.Handler) http.Handler {
	return defaultMiddleware().Handler(h)
}

// Handler returns h with its responses compressed. The method value
// m.Handler is a func(http.Handler) http.Handler, the shape routers such as
// chi take for middleware: r.Use(m.Handler).
func (m *Middleware) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.serve(h, w, r)
	})
}

func (m *Middleware) serve(h http.Handler, w http.ResponseWriter, r *http.Request) {
	s := m.s
	if s.skip != nil && s.skip(r) {
		h.ServeHTTP(w, r)
		return
	}
	if isUpgrade(r) {
		// An upgraded connection (WebSocket) is not an HTTP body; the handler
		// needs the connection itself, unwrapped, unless OnResponse is to hear
		// of a refusal: then a writer that passes everything through from the
		// start, Hijack included.
		if s.onResponse == nil {
			h.ServeHTTP(w, r)
			return
		}
		rw := newResponseWriter(w, r, s, choice{})
		rw.state, rw.skip = identity, SkipUpgrade
		defer rw.release()
		h.ServeHTTP(rw, r)
		rw.finish()
		return
	}
	c, ok := s.choose(r)
	if !ok && s.notAcceptable {
		negotiate.AddVary(w.Header(), "Accept-Encoding")
		// RFC 9110 §15.5.7 lets the 406 say what is available.
		http.Error(w, "406 not acceptable: the request excludes identity and every coding offered", http.StatusNotAcceptable)
		return
	}
	var body *decodedBody
	if s.decodeRequests {
		var done bool
		if r, body, done = s.decodeRequest(w, r); done {
			return
		}
		if body != nil {
			defer body.Close()
		}
	}
	rw := newResponseWriter(w, r, s, c)
	rw.reqBody = body
	r = rw.conditionalRequest(r)
	defer rw.release()
	h.ServeHTTP(rw.forHandler(), r)
	rw.finish()
}

// isUpgrade reports whether r asks for a tunnel rather than a response body:
// a protocol switch (RFC 9110 §7.8) such as WebSocket, or a CONNECT, which
// also carries WebSocket over HTTP/2 (RFC 8441). An h2c upgrade is not one:
// net/http ignores it and answers over HTTP/1.1.
func isUpgrade(r *http.Request) bool {
	if r.Method == http.MethodConnect {
		return true
	}
	upgrade := r.Header["Upgrade"]
	return upgrade != nil && httpfield.HasToken(r.Header["Connection"], "upgrade") && !httpfield.HasToken(upgrade, "h2c")
}
