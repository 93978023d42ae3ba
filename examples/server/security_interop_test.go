package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// markupAsText is how a DOM dump shows markup that a page holds as text.
var markupAsText = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(markup)

// checkNothingInjected fails the test if markup became an element of dom
// (a parsed <img> serializes with its attribute quoted) or its script ran.
func checkNothingInjected(t *testing.T, dom string) {
	t.Helper()
	if strings.Contains(dom, `<img src="x"`) {
		t.Errorf("the attacker's markup became an element of the page:\n%s", dom)
	}
	if strings.Contains(dom, "data-injected") {
		t.Errorf("the attacker's script ran in the page:\n%s", dom)
	}
}

// TestDemoBinaryShowsInjectedMarkupAsText plays an attacker against an
// exposed demo while a visitor's page is open: the attacker requests paths
// that carry markup, and whenever a page greets the chat, sends that markup
// to the chat and requests the paths again. The page must show the chat
// line as text, list none of the paths, and run none of the markup's
// script: the page used to write each recorded path into the page with
// innerHTML, a stored XSS.
func TestDemoBinaryShowsInjectedMarkupAsText(t *testing.T) {
	chromium := interop.Chromium(t)
	base, _ := startDemo(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dial, dialCancel := context.WithTimeout(ctx, waitTimeout)
	defer dialCancel()
	attacker, _, err := wsdeflate.Dial(dial, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer attacker.Close(wsdeflate.StatusNormalClosure, "")
	// The paths are requested before the first visit too, so that the
	// page's first look at /stats would find them if they were recorded.
	if err := requestMarkup(ctx, base); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		attack(ctx, t, base, attacker)
	}()
	defer func() { cancel(); <-done }()

	dom := chromium.WaitDOM(t, base+"/", markupAsText)
	checkNothingInjected(t, dom)
	recent := regexp.MustCompile(`(?s)<table id="recent">.*?</table>`).FindString(dom)
	for _, m := range regexp.MustCompile(`<tr><td>([^<]*)</td>`).FindAllStringSubmatch(recent, -1) {
		if !strings.HasPrefix(m[1], "GET /") || strings.Contains(m[1], "img") {
			t.Errorf("the recent list shows %q, want only the demo's routes", m[1])
		}
	}
}

// attack waits for pages to greet the chat and answers each greeting with
// the markup as a message, then with requestMarkup, until ctx ends.
func attack(ctx context.Context, t *testing.T, base string, c *wsdeflate.Conn) {
	for {
		_, msg, err := c.Read(ctx)
		if err == nil && strings.HasPrefix(string(msg), "hello from page ") {
			err = c.Write(ctx, wsdeflate.MessageText, []byte(markup))
			if err == nil {
				err = requestMarkup(ctx, base)
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				t.Errorf("attacker: %v", err)
			}
			return
		}
	}
}

// requestMarkup requests paths that carry markup, under the root, an API
// route and the static files.
func requestMarkup(ctx context.Context, base string) error {
	for _, p := range []string{"/", "/api/items/", "/static/"} {
		req, err := http.NewRequestWithContext(ctx, "GET", base+p+url.PathEscape(markup), nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

// TestDemoPageShowsWhatStatsReportAsText serves the page with a /stats that
// reports markup as a route, a coding, an origin and a reason: the page
// must show it as text in the table and the chart, whatever the server
// sends.
func TestDemoPageShowsWhatStatsReportAsText(t *testing.T) {
	chromium := interop.Chromium(t)
	h, err := newHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := json.Marshal(statsReply{
		Codings: map[string]codingStats{markup: {Responses: 1, BytesIn: 1000, BytesOut: 100}},
		Recent:  []response{{Route: markup, Coding: markup, Origin: markup, Skip: markup, BytesIn: 1000, BytesOut: 100}},
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(reply)
	})
	mux.Handle("/", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// One coding: two bars, once the page has drawn the reply.
	dom := chromium.WaitDOM(t, srv.URL+"/", `data-bars="2"`)
	checkNothingInjected(t, dom)
	for _, want := range []string{
		"<tr><td>" + markupAsText + "</td><td>" + markupAsText + "</td><td>" + markupAsText + "</td><td>" + markupAsText + "</td>", // route, coding, origin and reason in the table
		`class="coding">` + markupAsText + "</text>", // the coding's label in the chart
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page does not show %q as text:\n%s", want, dom)
		}
	}
}

// TestDemoBinaryRefusesOversizedHeaders checks the binary's http.Server
// bound on request headers, which the page partly echoes: 431 for 64 KiB.
func TestDemoBinaryRefusesOversizedHeaders(t *testing.T) {
	base, _ := startDemo(t)
	req, err := http.NewRequest("GET", base+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", strings.Repeat("x", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("64 KiB of headers: status %d, want 431", resp.StatusCode)
	}
}
