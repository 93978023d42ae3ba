package wsdeflate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// matrixCase is one permessage-deflate configuration of the window-bits
// matrix: what the peer asks for as a client, or grants as a server.
type matrixCase struct {
	Name             string `json:"name"`
	ServerBits       int    `json:"server_bits"` // 9..15, 0 for none
	ClientBits       int    `json:"client_bits"`
	ServerNoTakeover bool   `json:"server_no_takeover"`
	ClientNoTakeover bool   `json:"client_no_takeover"`
	Threshold        int    `json:"threshold"` // Node ws only: smaller messages go uncompressed
	Port             int    `json:"port"`      // the peer's server for this case
}

// want is what the agreement must say.
func (m matrixCase) want() Params {
	return Params{
		ServerNoContextTakeover: m.ServerNoTakeover,
		ClientNoContextTakeover: m.ClientNoTakeover,
		ServerMaxWindowBits:     bitsOrDefault(m.ServerBits, 8),
		ClientMaxWindowBits:     bitsOrDefault(m.ClientBits, 8),
	}
}

// matrixCases covers every window size from 9 to 15 bits in each
// direction (paired so that each case tests two: 9 with 15, 10 with 14, ...,
// 15 with 9), each no-context-takeover mode, and for Node ws a threshold
// below which it sends messages uncompressed.
func matrixCases(node bool) []matrixCase {
	var cases []matrixCase
	for b := 9; b <= 15; b++ {
		cases = append(cases, matrixCase{Name: fmt.Sprintf("server %d bits, client %d bits", b, 24-b), ServerBits: b, ClientBits: 24 - b})
	}
	cases = append(cases,
		matrixCase{Name: "server no takeover", ServerNoTakeover: true},
		matrixCase{Name: "client no takeover", ClientNoTakeover: true},
		matrixCase{Name: "no takeover, 10 bits", ServerNoTakeover: true, ClientNoTakeover: true, ServerBits: 10, ClientBits: 10},
	)
	if node {
		cases = append(cases, matrixCase{Name: "threshold 1024", Threshold: 1024})
	}
	return cases
}

// matrixRunTimeout bounds one peer process running the whole matrix.
const matrixRunTimeout = 150 * time.Second

// TestPeerWindowBitsMatrix echoes peerMessages JSON messages in every
// matrixCase with Python websockets and Node ws, as clients of our server
// and as servers for our client, one peer process per direction. Every
// case checks the echoes byte for byte and that both ends agree on the
// Sec-WebSocket-Extensions header and what it means.
func TestPeerWindowBitsMatrix(t *testing.T) {
	peers := []struct {
		name         string
		peer         func(testing.TB) *interop.Peer
		flags        []string
		client, serv string
		node         bool
	}{
		{"python websockets", func(t testing.TB) *interop.Peer { return interop.Python(t, "websockets") }, []string{"-u"}, "ws_matrix_client.py", "ws_matrix_server.py", false},
		{"node ws", interop.NodeWS, nil, "ws_matrix_client.js", "ws_matrix_server.js", true},
	}
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) {
			peer := p.peer(t)
			if peer == nil {
				return
			}
			cases := matrixCases(p.node)
			t.Run("peer client, our server", func(t *testing.T) {
				matrixOurServer(t, peer, append(append([]string{}, p.flags...), p.client), cases)
			})
			t.Run("our client, peer server", func(t *testing.T) {
				matrixOurClient(t, peer, append(append([]string{}, p.flags...), p.serv), cases)
			})
		})
	}
}

func scriptArgs(t *testing.T, flagsAndScript []string, args ...string) []string {
	t.Helper()
	n := len(flagsAndScript) - 1
	path, err := filepath.Abs(filepath.Join("testdata", flagsAndScript[n]))
	if err != nil {
		t.Fatal(err)
	}
	return append(append(append([]string{}, flagsAndScript[:n]...), path), args...)
}

// matrixOurServer runs the peer's matrix client against one echo server of
// ours, which records what it negotiated for each case (?case=N).
func matrixOurServer(t *testing.T, peer *interop.Peer, flagsAndScript []string, cases []matrixCase) {
	var mu sync.Mutex
	negotiated := make(map[int]string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("case"))
		c, err := Accept(w, r, nil)
		if err != nil {
			return
		}
		mu.Lock()
		negotiated[n] = c.Extensions()
		mu.Unlock()
		ctx := context.Background()
		for {
			typ, msg, err := c.Read(ctx)
			if err != nil || c.Write(ctx, typ, msg) != nil {
				return
			}
		}
	}))
	defer srv.Close()
	js, _ := json.Marshal(cases)
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/"
	start := time.Now()
	cmd := peer.Command(scriptArgs(t, flagsAndScript, url, strconv.Itoa(peerMessages), string(js))...)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s matrix client: %v", peer.Name, err)
	}
	timer := time.AfterFunc(matrixRunTimeout, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	out := output.String()
	if err != nil {
		t.Fatalf("%s matrix client: %v\n%s", peer.Name, err, out)
	}
	t.Logf("%d cases × %d messages in %v", len(cases), peerMessages, time.Since(start).Round(time.Millisecond))
	for n, m := range cases {
		if !strings.Contains(out, fmt.Sprintf("case %d ok %d\n", n, peerMessages)) {
			t.Errorf("%s: %s did not echo %d messages:\n%s", m.Name, peer.Name, peerMessages, out)
			continue
		}
		mu.Lock()
		ours := negotiated[n]
		mu.Unlock()
		prefix := fmt.Sprintf("case %d extensions: ", n)
		i := strings.Index(out, prefix)
		if i < 0 {
			t.Errorf("%s: %s printed no extensions header:\n%s", m.Name, peer.Name, out)
			continue
		}
		seen, _, _ := strings.Cut(out[i+len(prefix):], "\n")
		// What the peer received and what our server agreed must mean the
		// same, and what the case asked for.
		checkAgreement(t, m, seen)
		checkAgreement(t, m, ours)
	}
}

// matrixOurClient starts the peer's matrix server, one listener per case,
// and echoes through each with our client.
func matrixOurClient(t *testing.T, peer *interop.Peer, flagsAndScript []string, cases []matrixCase) {
	for i := range cases {
		cases[i].Port = interop.FreePort(t)
	}
	js, _ := json.Marshal(cases)
	interop.Start(t, peer.Command(scriptArgs(t, flagsAndScript, string(js))...), interop.OnLine("listening"))
	start := time.Now()
	for _, m := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		c, _, err := Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(m.Port)+"/", nil)
		if err != nil {
			cancel()
			t.Fatalf("%s: Dial: %v", m.Name, err)
		}
		checkAgreement(t, m, c.Extensions())
		echoMessages(t, ctx, c)
		c.Close(StatusNormalClosure, "")
		cancel()
	}
	t.Logf("%d cases × %d messages in %v", len(cases), peerMessages, time.Since(start).Round(time.Millisecond))
}

// checkAgreement parses the negotiated header as a client would and
// compares its meaning with the case's.
func checkAgreement(t *testing.T, m matrixCase, header string) {
	t.Helper()
	got, ok, err := ParseResponse([]string{header}, Config{})
	if err != nil || !ok {
		t.Errorf("%s: negotiated %q: ok=%v, %v", m.Name, header, ok, err)
		return
	}
	if got != m.want() {
		t.Errorf("%s: negotiated %q = %+v, want %+v", m.Name, header, got, m.want())
	}
}
