package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/interop"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// startDemo builds the demo into a temporary directory, starts it on a free
// port with args, waits for its banner and returns its base URL (http or
// https) and the process, which the test's cleanup stops by PID.
func startDemo(t *testing.T, args ...string) (string, *interop.Process) {
	t.Helper()
	interop.Peers(t)
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	addr := "127.0.0.1:" + strconv.Itoa(interop.FreePort(t))
	start := time.Now()
	p := interop.Start(t, exec.Command(bin, append([]string{"-addr", addr}, args...)...), interop.OnLine("squeeze demo on"))
	t.Logf("demo %v printed its banner %v after starting", args, time.Since(start).Round(time.Millisecond))
	m := regexp.MustCompile(`squeeze demo on (https?://\S+)/`).FindStringSubmatch(p.Output())
	if m == nil {
		t.Fatalf("banner names no URL:\n%s", p.Output())
	}
	return m[1], p
}

// decoders undo each coding the demo offers, to check that what curl
// received is the document and not only a header.
var decoders = map[string]func(io.Reader) (io.Reader, error){
	"zstd":    func(r io.Reader) (io.Reader, error) { return zstd.NewReader(r) },
	"br":      func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	"gzip":    func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	"deflate": func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) }, // RFC 9110 §8.4.1.2: zlib
}

// curlGet fetches url with curl asking for coding only and returns the
// response's Content-Encoding and decoded body.
func curlGet(t *testing.T, curl *interop.Peer, url, coding string, extra ...string) (string, []byte) {
	t.Helper()
	body := filepath.Join(t.TempDir(), "body")
	args := append([]string{"-sS", "-D", "-", "-o", body, "-H", "Accept-Encoding: " + coding}, extra...)
	headers := curl.Run(t, append(args, url)...)
	// net/http reads HTTP/1.x status lines only; over TLS curl speaks h2.
	headers = strings.Replace(headers, "HTTP/2 ", "HTTP/1.1 ", 1)
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(headers)), nil)
	if err != nil {
		t.Fatalf("curl %s: unreadable headers %q: %v", url, headers, err)
	}
	enc := resp.Header.Get("Content-Encoding")
	raw, err := os.ReadFile(body)
	if err != nil {
		t.Fatal(err)
	}
	dec, ok := decoders[enc]
	if !ok {
		return enc, raw
	}
	r, err := dec(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("curl %s as %s: %v", url, enc, err)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("curl %s as %s: decoding: %v", url, enc, err)
	}
	return enc, plain
}

func TestDemoBinaryServesEachCodingToCurl(t *testing.T) {
	base, p := startDemo(t)
	curl := interop.Curl(t)
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		for _, path := range []string{"/", "/api/items", "/static/app.js"} {
			if path == "/static/app.js" && coding == "deflate" {
				continue // the generator writes no deflate sidecar; gzip covers it
			}
			enc, body := curlGet(t, curl, base+path, coding)
			if enc != coding {
				t.Errorf("GET %s with Accept-Encoding %s: Content-Encoding %q", path, coding, enc)
			}
			if path == "/api/items" && !json.Valid(body) {
				t.Errorf("GET %s as %s: decoded body is not JSON: %.80q", path, coding, body)
			}
			if path == "/" && !bytes.Contains(body, []byte(`<svg id="chart"`)) {
				t.Errorf("GET / as %s: page has no chart element", coding)
			}
		}
	}

	// The SSE stream: the first event arrives, through zstd, while the
	// handler is still sleeping before the next one.
	req, _ := http.NewRequest("GET", base+"/events", nil)
	req.Header.Set("Accept-Encoding", "zstd")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if enc := resp.Header.Get("Content-Encoding"); enc != "zstd" {
		t.Fatalf("/events: Content-Encoding %q, want zstd", enc)
	}
	zr, err := zstd.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if line, err := bufio.NewReader(zr).ReadString('\n'); err != nil || line != "id: 0\n" {
		t.Fatalf("/events: first line %q, %v: the first event was not flushed through the encoder", line, err)
	}

	var stats statsReply
	if err := json.Unmarshal([]byte(curl.Run(t, "-sS", base+"/stats")), &stats); err != nil {
		t.Fatalf("/stats: %v", err)
	}
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		if s := stats.Codings[coding]; s.Responses < 2 || s.BytesOut >= s.BytesIn {
			t.Errorf("/stats for %s: %+v, want two responses or more, compressed", coding, s)
		}
	}
	p.Stop()
}

func TestDemoBinaryChatBroadcastsBetweenClients(t *testing.T) {
	base, _ := startDemo(t)
	url := "ws" + strings.TrimPrefix(base, "http") + "/ws"
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	// dial returns a client once it is in the room: its own greeting has
	// come back (the server answers the handshake before it adds the client).
	dial := func() *wsdeflate.Conn {
		c, _, err := wsdeflate.Dial(ctx, url, nil)
		if err != nil {
			t.Fatalf("dial %s: %v", url, err)
		}
		if !strings.HasPrefix(c.Extensions(), "permessage-deflate") {
			t.Fatalf("extensions %q: permessage-deflate not negotiated", c.Extensions())
		}
		t.Cleanup(func() { c.Close(wsdeflate.StatusNormalClosure, "") })
		hello := "hello " + strconv.Itoa(rand.N(1<<30))
		if err := c.Write(ctx, wsdeflate.MessageText, []byte(hello)); err != nil {
			t.Fatal(err)
		}
		readUntil(t, ctx, "a new client", c, hello)
		return c
	}
	alice, bob := dial(), dial()
	msg := strings.Repeat(`{"from":"alice","text":"hello, bob"} `, 20)
	if err := alice.Write(ctx, wsdeflate.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	readUntil(t, ctx, "bob", bob, msg)
	readUntil(t, ctx, "alice (her own echo)", alice, msg)

	// Python's websockets client, if present, gets the same broadcast.
	if py := pythonWebsockets(t); py != nil {
		out := py.Run(t, "-c", pyChat, url, "from python")
		if !strings.Contains(out, "permessage-deflate") {
			t.Errorf("python websockets: extensions %q", out)
		}
		readUntil(t, ctx, "bob", bob, "from python")
	}
}

// readUntil reads c's messages until want arrives, skipping the others'
// greetings, and fails the test if it does not.
func readUntil(t *testing.T, ctx context.Context, who string, c *wsdeflate.Conn, want string) {
	t.Helper()
	for {
		_, got, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("%s: %v while waiting for %.40q", who, err, want)
		}
		if string(got) == want {
			return
		}
	}
}

// pyChat sends argv[2] to the room at argv[1], waits for its broadcast and
// prints the negotiated extensions.
const pyChat = `
import asyncio, sys, websockets
async def main():
    async with websockets.connect(sys.argv[1]) as ws:
        await ws.send(sys.argv[2])
        while await ws.recv() != sys.argv[2]:
            pass
        print(ws.response_headers.get("Sec-WebSocket-Extensions"))
asyncio.run(main())
`

// pythonWebsockets is Python with websockets, or nil when it is missing and
// not required: the Go client above already proves the chat.
func pythonWebsockets(t *testing.T) *interop.Peer {
	if interop.Required() {
		return interop.Python(t, "websockets")
	}
	var py *interop.Peer
	t.Run("python", func(t *testing.T) { py = interop.Python(t, "websockets") })
	return py
}

func TestDemoBinaryTLS(t *testing.T) {
	base, p := startDemo(t, "-tls")
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("-tls serves %s", base)
	}
	if !regexp.MustCompile(`fingerprint ([0-9A-F]{2}:){31}[0-9A-F]{2}`).MatchString(p.Output()) {
		t.Errorf("no SHA-256 fingerprint printed:\n%s", p.Output())
	}
	curl := interop.Curl(t)
	for _, coding := range []string{"zstd", "br"} {
		if enc, body := curlGet(t, curl, base+"/api/items", coding, "-k"); enc != coding || !json.Valid(body) {
			t.Errorf("https GET /api/items as %s: Content-Encoding %q, JSON %v", coding, enc, json.Valid(body))
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	url := "wss" + strings.TrimPrefix(base, "https") + "/ws"
	c, _, err := wsdeflate.Dial(ctx, url, &wsdeflate.DialOptions{TLSConfig: &tls.Config{InsecureSkipVerify: true}})
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	defer c.Close(wsdeflate.StatusNormalClosure, "")
	if _, got, err := c.Read(ctx); err != nil || string(got) != "this socket runs over HTTP/1.1" {
		t.Fatalf("first message %q, %v; want the protocol", got, err)
	}
	if err := c.Write(ctx, wsdeflate.MessageText, []byte("over tls")); err != nil {
		t.Fatal(err)
	}
	if _, got, err := c.Read(ctx); err != nil || string(got) != "over tls" {
		t.Errorf("wss echo %q, %v", got, err)
	}
}

func TestDemoBinaryPageInChromium(t *testing.T) {
	chromium := interop.Chromium(t)
	base, _ := startDemo(t)
	// The page writes data-roundtrip="ok" once its own chat message came
	// back through the broadcast, and data-bars once the chart is drawn.
	dom := chromium.WaitDOM(t, base+"/", `data-roundtrip="ok"`)
	bars := regexp.MustCompile(`<svg id="chart"[^>]*data-bars="(\d+)"`).FindStringSubmatch(dom)
	if bars == nil || bars[1] == "0" {
		t.Fatalf("chart not drawn (data-bars %v) in:\n%s", bars, dom)
	}
	for _, m := range regexp.MustCompile(`<rect x="\d+" y="[\d.]+" width="(\d+)"`).FindAllStringSubmatch(dom, -1) {
		if m[1] == "0" {
			t.Errorf("chart has a zero-width bar: %s", m[0])
		}
	}
	// Chromium offers br and zstd to 127.0.0.1, so the page went out as one.
	if !regexp.MustCompile(`<g data-coding="(zstd|br)"`).MatchString(dom) {
		t.Errorf("chart shows no br or zstd responses:\n%s", dom)
	}
	png := chromium.Screenshot(t, base+"/", 900, 1000)
	t.Logf("screenshot: %s", png)
	// SQUEEZE_SCREENSHOT_DIR keeps a copy for a person to look at.
	if dir := os.Getenv("SQUEEZE_SCREENSHOT_DIR"); dir != "" {
		if b, err := os.ReadFile(png); err == nil {
			os.WriteFile(filepath.Join(dir, "demo.png"), b, 0o644)
		}
	}
}

func TestDemoBinaryPageInChromiumOverTLS(t *testing.T) {
	// The chat runs over wss on its own HTTP/1.1 connection while the page
	// comes over HTTP/2.
	dom := demoPageOverTLS(t)
	if !strings.Contains(dom, "this socket runs over HTTP/1.1") {
		t.Errorf("the page does not say its socket runs over HTTP/1.1:\n%s", dom)
	}
}

// TestRFC8441DemoChatOverHTTP2InChromium starts the demo with
// GODEBUG=http2xconnect=1: Chromium opens the chat's WebSocket as an
// Extended CONNECT on the page's HTTP/2 connection, the chat round trip
// completes, and the page says HTTP/2.0.
func TestRFC8441DemoChatOverHTTP2InChromium(t *testing.T) {
	t.Setenv("GODEBUG", "http2xconnect=1") // for the demo process, which reads it at start
	dom := demoPageOverTLS(t)
	if !strings.Contains(dom, "this socket runs over HTTP/2.0") {
		t.Errorf("the page does not say its socket runs over HTTP/2.0:\n%s", dom)
	}
}

// demoPageOverTLS loads the demo's page over https in Chromium until its
// chat round trip is done and returns the DOM.
func demoPageOverTLS(t *testing.T) string {
	t.Helper()
	chromium := interop.Chromium(t)
	base, _ := startDemo(t, "-tls")
	// Trust the demo's fresh certificate by its key, as a user accepting
	// the warning would, so that the page is a secure context.
	conn, err := tls.Dial("tcp", strings.TrimPrefix(base, "https://"), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	spki := sha256.Sum256(conn.ConnectionState().PeerCertificates[0].RawSubjectPublicKeyInfo)
	conn.Close()
	profile := chromium.Profile(t)
	profile.Flags = []string{"--ignore-certificate-errors-spki-list=" + base64.StdEncoding.EncodeToString(spki[:])}
	dom := profile.WaitDOM(t, base+"/", `data-roundtrip="ok"`)
	if !regexp.MustCompile(`<g data-coding="(zstd|br)"`).MatchString(dom) {
		t.Errorf("over https the chart shows no br or zstd responses:\n%s", dom)
	}
	return dom
}

// TestDemoBinaryShutsDownGracefullyOnSIGTERM: SIGTERM stops the demo
// cleanly, exit status 0, while a server-sent events stream and a chat
// WebSocket are open: the stream ends (its context is the server's), the
// socket is let go, and the process does not die of the signal.
func TestDemoBinaryShutsDownGracefullyOnSIGTERM(t *testing.T) {
	base, p := startDemo(t)
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	ws, _, err := wsdeflate.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close(wsdeflate.StatusNormalClosure, "")
	resp, err := http.Get(base + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	if line, err := events.ReadString('\n'); err != nil || line != "id: 0\n" {
		t.Fatalf("first event line %q, %v", line, err)
	}
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err, exited := p.Exited(shutdownTimeout + 5*time.Second)
	if !exited || err != nil {
		t.Fatalf("after SIGTERM: exited %v, %v; want exit status 0\n%s", exited, err, p.Output())
	}
	if !strings.Contains(p.Output(), "stopped") {
		t.Errorf("no goodbye in the output:\n%s", p.Output())
	}
	if rest, err := io.ReadAll(events); err != nil || strings.Count(string(rest), "id: ") >= 9 {
		t.Errorf("events stream after shutdown: %v, %d more events; want a clean end before the last", err, strings.Count(string(rest), "id: "))
	}
}
