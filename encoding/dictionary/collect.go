package dictionary

import (
	"net/http"
	"strings"
)

// Bounds of what Collect keeps: samples of at most collectMaxBody bytes,
// at most collectSamples of them, and a build from them every
// collectRebuild new ones.
const (
	collectMaxBody = 16 << 10
	collectSamples = 64
	collectRebuild = 32
)

// Collect wraps the handler of the route's responses so that the route
// learns from them: the body of a 200 to a GET whose path the route's
// pattern matches, that a shared cache could store (PublicResponse: no
// Set-Cookie, no Authorization, not private or no-store) and that is sent
// uncoded and whole (at most 16 KiB), is kept as a sample, up to the 64
// newest. Every 32 new samples the route builds a dictionary from them, in
// the background, and measures it on the samples the application's last
// Build held back: a collected dictionary is announced only when it
// compresses the application's own samples better, by RouteConfig.MinGain,
// than br, zstd and the announced one, so that responses a client chose
// cannot make a dictionary the application's samples do not vouch for.
// Before the application has called Build, nothing is built. Wrap the
// route's handler itself, inside encoding's middleware, whose compressed
// bytes would teach nothing.
func (r *Route) Collect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet || !matchPath(r.match, req.URL.Path) {
			next.ServeHTTP(w, req)
			return
		}
		tw := &teeWriter{ResponseWriter: w}
		next.ServeHTTP(tw, req)
		h := w.Header()
		if tw.status != http.StatusOK && tw.status != 0 || tw.over || len(tw.body) == 0 ||
			h.Get("Content-Encoding") != "" || !PublicResponse(req, h) {
			return
		}
		r.keep(tw.body)
	})
}

// keep adds a sample and starts a build from the collected ones when
// enough are new.
func (r *Route) keep(body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.collected) == collectSamples {
		r.collected = append(r.collected[:0], r.collected[1:]...)
	}
	r.collected = append(r.collected, body)
	r.fresh++
	if r.fresh < collectRebuild || r.building || r.reference == nil {
		return
	}
	r.fresh, r.building = 0, true
	train, test := append([][]byte(nil), r.collected...), r.reference
	go func() {
		_, _ = r.build(train, test) // what it measured is Announced's to say
		r.mu.Lock()
		r.building = false
		r.mu.Unlock()
	}()
}

// teeWriter keeps a copy of the body its handler writes, up to
// collectMaxBody bytes; over says the body was longer.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   []byte
	over   bool
}

func (t *teeWriter) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	if !t.over {
		if len(t.body)+len(p) > collectMaxBody {
			t.over, t.body = true, nil
		} else {
			t.body = append(t.body, p...)
		}
	}
	return t.ResponseWriter.Write(p)
}

// Flush flushes the wrapped ResponseWriter, for a handler that streams.
func (t *teeWriter) Flush() { _ = http.NewResponseController(t.ResponseWriter).Flush() }

// Unwrap returns the wrapped ResponseWriter, for http.ResponseController.
func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// matchPath reports whether path matches pattern, a URL pattern whose only
// special character is *, which stands for any run of characters, "/"
// included (the pathname part of RFC 9842 §2.1.1's URL patterns without
// groups or named parts).
func matchPath(pattern, path string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	path = path[len(parts[0]):]
	last := len(parts) - 1
	for i, p := range parts[1:] {
		if i+1 == last {
			return strings.HasSuffix(path, p) && len(path) >= len(p)
		}
		j := strings.Index(path, p)
		if j < 0 {
			return false
		}
		path = path[j+len(p):]
	}
	return path == ""
}
