package wsdeflate

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// peerMessages is how many messages each interop run echoes.
const peerMessages = 1000

// peerMode is one permessage-deflate configuration tried with every peer.
type peerMode struct {
	name string
	// What the peer asks for (as a client) or grants (as a server):
	// window bits, 0 for none, and no context takeover both ways.
	serverBits, clientBits int
	noTakeover             bool
	// ours is our server's policy when the peer is the client.
	ours Config
	// want is the Sec-WebSocket-Extensions value both sides must agree on.
	want string
}

// peerModes are the modes outside TestPeerWindowBitsMatrix, which covers
// window bits and context takeover in one peer process per direction.
var peerModes = []peerMode{
	{name: "takeover", want: "permessage-deflate"},
	{name: "no takeover", noTakeover: true, want: "permessage-deflate; server_no_context_takeover; client_no_context_takeover"},
	{name: "our server limits itself to 10 bits", ours: Config{ServerMaxWindowBits: 10}, want: "permessage-deflate; server_max_window_bits=10"},
}

// peerArgs are the mode's arguments to the testdata scripts.
func (m peerMode) peerArgs() []string {
	nt := "0"
	if m.noTakeover {
		nt = "1"
	}
	return []string{strconv.Itoa(m.serverBits), strconv.Itoa(m.clientBits), nt}
}

// testOurServerWithPeerClient runs a peer's echo client script against our
// echo server in every mode.
func testOurServerWithPeerClient(t *testing.T, peer *interop.Peer, script string) {
	path, err := filepath.Abs(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range peerModes {
		t.Run(m.name, func(t *testing.T) {
			url, negotiated := echoServer(t, &AcceptOptions{Compression: m.ours})
			args := append([]string{path, url, strconv.Itoa(peerMessages)}, m.peerArgs()...)
			start := time.Now()
			out := peer.Run(t, args...)
			if !strings.Contains(out, "ok "+strconv.Itoa(peerMessages)) {
				t.Fatalf("%s did not echo %d messages:\n%s", peer.Name, peerMessages, out)
			}
			if !strings.Contains(out, "extensions: "+m.want+"\n") {
				t.Errorf("%s saw a different Sec-WebSocket-Extensions, want %q:\n%s", peer.Name, m.want, out)
			}
			if got := <-negotiated; got != m.want {
				t.Errorf("our server negotiated %q, want %q", got, m.want)
			}
			t.Logf("%d messages echoed in %v", peerMessages, time.Since(start).Round(time.Millisecond))
		})
	}
}

func TestPythonWebsocketsClientWithOurServer(t *testing.T) {
	py := interop.Python(t, "websockets")
	if py == nil {
		return
	}
	testOurServerWithPeerClient(t, py, "ws_client.py")
}

func TestNodeWSClientWithOurServer(t *testing.T) {
	node := interop.NodeWS(t)
	if node == nil {
		return
	}
	testOurServerWithPeerClient(t, node, "ws_client.js")
}

func TestOurClientWithPythonWebsocketsServer(t *testing.T) {
	py := interop.Python(t, "websockets")
	if py == nil {
		return
	}
	testOurClientWithPeerServer(t, py, "-u", "ws_server.py")
}

func TestOurClientWithNodeWSServer(t *testing.T) {
	node := interop.NodeWS(t)
	if node == nil {
		return
	}
	testOurClientWithPeerServer(t, node, "ws_server.js")
}

// testOurClientWithPeerServer runs our client against a peer's echo server
// script (after the peer's own flags) in every mode the peer can grant.
func testOurClientWithPeerServer(t *testing.T, peer *interop.Peer, flagsAndScript ...string) {
	n := len(flagsAndScript) - 1
	path, err := filepath.Abs(filepath.Join("testdata", flagsAndScript[n]))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range peerModes {
		if m.ours != (Config{}) {
			continue // a server-side policy of ours; nothing to ask the peer
		}
		t.Run(m.name, func(t *testing.T) {
			port := interop.FreePort(t)
			args := append(append(append([]string{}, flagsAndScript[:n]...), path, strconv.Itoa(port)), m.peerArgs()...)
			interop.Start(t, peer.Command(args...), interop.OnLine("listening"))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, resp, err := Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(port)+"/", nil)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer c.Close(StatusNormalClosure, "")
			checkNegotiated(t, resp, c, m.want)
			echoMessages(t, ctx, c)
		})
	}
}

// checkNegotiated compares what the server sent, parsed by ParseResponse,
// with the agreement wanted.
func checkNegotiated(t *testing.T, resp *http.Response, c *Conn, want string) {
	t.Helper()
	if got := c.Extensions(); got != want {
		t.Errorf("negotiated %q (server sent %q), want %q", got, resp.Header.Get("Sec-WebSocket-Extensions"), want)
	}
}

// echoMessages sends peerMessages JSON messages of mixed sizes and checks
// that each comes back byte for byte.
func echoMessages(t *testing.T, ctx context.Context, c *Conn) {
	t.Helper()
	start := time.Now()
	for i := range peerMessages {
		msg := jsonMessage(uint64(i), []int{16, 200, 1000, 5000}[i%4])
		if err := c.Write(ctx, MessageText, msg); err != nil {
			t.Fatalf("Write %d: %v", i, err)
		}
		typ, got, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("Read %d: %v", i, err)
		}
		if typ != MessageText || !bytes.Equal(got, msg) {
			t.Fatalf("echo %d: type %d, %d bytes; sent text, %d bytes", i, typ, len(got), len(msg))
		}
	}
	t.Logf("%d messages echoed in %v", peerMessages, time.Since(start).Round(time.Millisecond))
}
