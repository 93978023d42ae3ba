package encoding

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// pushProbe is a handler that reports whether its writer is an
// http.Pusher and what a Push returned, and whether Bypass still finds
// the middleware's writer.
func pushProbe(w http.ResponseWriter, r *http.Request) {
	Bypass(w)
	p, ok := w.(http.Pusher)
	result := "no pusher"
	if ok {
		result = fmt.Sprint("push: ", p.Push("/style.css", nil))
	}
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, result+"\n"+string(sampleText(4096)))
}

// TestPusherPassesThroughOverHTTP2_gziphandler36: over HTTP/2 with TLS,
// w.(http.Pusher) holds through the middleware as it does without it, and
// Push reaches the connection (Go's client refuses pushes, so both answer
// with the server's http.ErrNotSupported); over HTTP/1.1 neither is a
// Pusher. The peers' reports: gziphandler#36, echo#1602 and #1615.
func TestPusherPassesThroughOverHTTP2_gziphandler36(t *testing.T) {
	m := mustNew(t, Config{})
	for _, h2 := range []bool{true, false} {
		got := map[string]string{}
		for name, h := range map[string]http.Handler{"without": http.HandlerFunc(pushProbe), "with": m.Handler(http.HandlerFunc(pushProbe))} {
			srv := httptest.NewUnstartedServer(h)
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			client := srv.Client()
			client.Timeout = 10 * time.Second
			if !h2 {
				client.Transport.(*http.Transport).TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
				client.Transport.(*http.Transport).ForceAttemptHTTP2 = false
			}
			req, _ := http.NewRequest("GET", srv.URL, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			srv.Close()
			if resp.ProtoMajor == 2 != h2 {
				t.Fatalf("%s the middleware: %s, want HTTP/2 %v", name, resp.Proto, h2)
			}
			if resp.Header.Get("Content-Encoding") != "" {
				t.Errorf("%s the middleware: Bypass did not find its writer: Content-Encoding %q", name, resp.Header.Get("Content-Encoding"))
			}
			line, _, _ := strings.Cut(string(body), "\n")
			got[name] = line
		}
		if want := "no pusher"; h2 {
			if got["without"] == want || got["with"] != got["without"] {
				t.Errorf("HTTP/2: through the middleware %q, without %q; want the same Pusher", got["with"], got["without"])
			}
		} else if got["with"] != want || got["without"] != want {
			t.Errorf("HTTP/1.1: through the middleware %q, without %q; want no Pusher", got["with"], got["without"])
		}
	}
}
