package wsdeflate

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// chromiumPage opens a WebSocket back to the server that served it, sends
// peerMessages text messages (every third under 128 bytes, the rest JSON
// of 1–20 KB), checks that each echo equals what was sent, in order, and
// writes the outcome into the title: "echoed N" on success, "failed: ..."
// otherwise. It sends the next message only after the previous echo, so
// the exchange also exercises the server's idle timer between messages.
//
// Headless Chromium dumps the DOM once the page has loaded and its virtual
// time budget has run out, and an open WebSocket does not hold virtual time
// back; the last script, which the server answers only when the WebSocket
// has ended, keeps the page loading until then.
const chromiumPage = `<!doctype html><title>start</title>
<script>
const total = %d;
function message(i) {
	if (i %% 3 === 0) return "short " + i + " " + "abc".repeat(i %% 30);
	const size = 1024 + (i * 7919) %% (19 * 1024);
	let s = '{"type":"update","seq":' + i + ',"events":[';
	for (let j = 0; s.length < size - 2; j++) {
		if (j > 0) s += ",";
		s += '{"id":' + (i * 31 + j) + ',"symbol":"' + String.fromCharCode(65 + (i + j) %% 26, 65 + j %% 26) +
			'","price":' + ((i * j) %% 1000) + '.' + (j %% 100) + ',"user":"user' + (j %% 97) + '","ok":' + (j %% 2 === 0) + '}';
	}
	return s + "]}";
}
const ws = new WebSocket("ws://" + location.host + "/ws");
let i = 0, sent = "";
function next() {
	if (i === total) {
		document.title = "echoed " + i;
		ws.close(1000, "done");
		return;
	}
	sent = message(i);
	ws.send(sent);
}
ws.onopen = next;
ws.onmessage = (e) => {
	if (e.data !== sent) {
		document.title = "failed: echo " + i + " has " + String(e.data).length + " chars, sent " + sent.length;
		ws.close();
		return;
	}
	i++;
	next();
};
ws.onerror = () => { document.title = "failed: websocket error after " + i + " echoes" };
ws.onclose = (e) => { if (i < total) document.title = "failed: closed " + e.code + " after " + i + " echoes" };
</script>
<script src="/wait"></script>`

// chromiumSession is what the server saw on one WebSocket connection.
type chromiumSession struct {
	extensions string
	echoed     int
	err        error // from Accept
}

// TestChromiumEchoesOverPermessageDeflate has headless Chromium's own
// WebSocket client negotiate permessage-deflate with Accept and echo
// peerMessages messages of mixed sizes through it.
func TestChromiumEchoesOverPermessageDeflate(t *testing.T) {
	browser := interop.Chromium(t)
	if browser == nil {
		return
	}
	sessions := make(chan chromiumSession, 16)
	ended := make(chan struct{}, 16)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, chromiumPage, peerMessages)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, nil)
		if err != nil {
			sessions <- chromiumSession{err: err}
			return
		}
		s := chromiumSession{extensions: c.Extensions()}
		defer func() { sessions <- s; ended <- struct{}{} }()
		ctx := context.Background()
		for {
			typ, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, msg); err != nil {
				return // the browser went away, as it does when a load ends early
			}
			s.echoed++
		}
	})
	mux.HandleFunc("/wait", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-ended:
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
		w.Header().Set("Content-Type", "text/javascript")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	start := time.Now()
	marker := fmt.Sprintf("<title>echoed %d</title>", peerMessages)
	browser.WaitDOM(t, srv.URL, marker)
	t.Logf("Chromium echoed %d messages in %v", peerMessages, time.Since(start).Round(time.Millisecond))

	// WaitDOM may have loaded the page more than once; every connection
	// must have negotiated the extension, and one must have echoed all.
	timeout := time.After(10 * time.Second)
	for {
		select {
		case s := <-sessions:
			if s.err != nil {
				t.Fatalf("server side of a Chromium connection: %v", s.err)
			}
			if !strings.Contains(s.extensions, ExtensionName) {
				t.Fatalf("Chromium connection negotiated %q, want %s", s.extensions, ExtensionName)
			}
			if s.echoed == peerMessages {
				t.Logf("negotiated %q", s.extensions)
				return
			}
		case <-timeout:
			t.Fatalf("no Chromium connection reported %d echoes to the server within 10s of the page's success", peerMessages)
		}
	}
}
