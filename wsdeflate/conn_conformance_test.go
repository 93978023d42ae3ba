package wsdeflate

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawClient is a WebSocket client that writes frames byte by byte, for
// sending what a correct client never would.
type rawClient struct {
	t    *testing.T
	nc   net.Conn
	br   *bufio.Reader
	resp *http.Response // the handshake response
}

// dialRaw performs the opening handshake by hand against url, offering
// extensions when not empty.
func dialRaw(t *testing.T, url, extensions string) *rawClient {
	t.Helper()
	host := strings.TrimPrefix(url, "ws://")
	nc, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET / HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
	if extensions != "" {
		req += "Sec-WebSocket-Extensions: " + extensions + "\r\n"
	}
	if _, err := io.WriteString(nc, req+"\r\n"); err != nil {
		t.Fatalf("write handshake: %v", err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("read handshake: %v", err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake answered %s", resp.Status)
	}
	return &rawClient{t: t, nc: nc, br: br, resp: resp}
}

// frame is one frame to send; masked unless unmasked is set.
type frame struct {
	h        header
	payload  []byte
	unmasked bool
}

func (rc *rawClient) send(frames ...frame) {
	rc.t.Helper()
	var b []byte
	for _, f := range frames {
		h := f.h
		h.length = int64(len(f.payload))
		h.masked = !f.unmasked
		h.key = [4]byte{0x37, 0xfa, 0x21, 0x3d}
		b = appendHeader(b, h)
		start := len(b)
		b = append(b, f.payload...)
		if h.masked {
			mask(h.key, 0, b[start:])
		}
	}
	if _, err := rc.nc.Write(b); err != nil {
		rc.t.Fatalf("write frames: %v", err)
	}
}

// next reads one frame from the server.
func (rc *rawClient) next() (header, []byte) {
	rc.t.Helper()
	var buf [maxHeaderSize]byte
	h, err := readHeader(rc.br, &buf)
	if err != nil {
		rc.t.Fatalf("read frame from server: %v", err)
	}
	if h.masked {
		rc.t.Fatalf("server sent a masked frame (RFC 6455 §5.1 forbids it)")
	}
	p := make([]byte, h.length)
	if _, err := io.ReadFull(rc.br, p); err != nil {
		rc.t.Fatalf("read payload from server: %v", err)
	}
	return h, p
}

// expectClose reads until a close frame and checks its code.
func (rc *rawClient) expectClose(want StatusCode) {
	rc.t.Helper()
	for {
		h, p := rc.next()
		if h.op != opClose {
			continue
		}
		if len(p) < 2 {
			rc.t.Fatalf("server closed without a code, want %d", want)
		}
		if got := StatusCode(binary.BigEndian.Uint16(p)); got != want {
			rc.t.Fatalf("server closed with %d %q, want %d", got, p[2:], want)
		}
		return
	}
}

func data(op opcode, fin bool, p string) frame {
	return frame{h: header{op: op, fin: fin}, payload: []byte(p)}
}

func closeFrame(code StatusCode, reason string) frame {
	return frame{h: header{op: opClose, fin: true}, payload: appendClose(nil, code, reason)}
}

// failureCase is frames that must make the server fail the connection
// with want.
type failureCase struct {
	name       string
	extensions string
	frames     []frame
	want       StatusCode
}

// failureCases are the MUSTs of RFC 6455 §5–§8 and RFC 7692 §6 that end a
// connection, each with the status code the peer must see, for a server
// with a 1024-byte read limit.
func failureCases() []failureCase {
	long := strings.Repeat("x", 126)
	cases := []failureCase{
		{"§5.1 unmasked client frame", "", []frame{{h: header{op: opText, fin: true}, payload: []byte("hi"), unmasked: true}}, StatusProtocolError},
		{"§5.2 reserved data opcode 0x3", "", []frame{data(0x3, true, "")}, StatusProtocolError},
		{"§5.2 reserved control opcode 0xB", "", []frame{data(0xB, true, "")}, StatusProtocolError},
		{"§5.2 RSV2 set", "", []frame{{h: header{op: opText, fin: true, rsv2: true}}}, StatusProtocolError},
		{"§5.2 RSV3 set", "", []frame{{h: header{op: opText, fin: true, rsv3: true}}}, StatusProtocolError},
		{"RFC 7692 §6 RSV1 without the extension", "", []frame{{h: header{op: opText, fin: true, rsv1: true}}}, StatusProtocolError},
		{"RFC 7692 §6 RSV1 on a continuation", ExtensionName, []frame{data(opText, false, "a"), {h: header{op: opContinuation, fin: true, rsv1: true}}}, StatusProtocolError},
		{"RFC 7692 §6 RSV1 on a ping", ExtensionName, []frame{{h: header{op: opPing, fin: true, rsv1: true}}}, StatusProtocolError},
		{"§5.5 fragmented ping", "", []frame{data(opPing, false, "")}, StatusProtocolError},
		{"§5.5 ping of 126 bytes", "", []frame{data(opPing, true, long)}, StatusProtocolError},
		{"§5.4 continuation without a message", "", []frame{data(opContinuation, true, "x")}, StatusProtocolError},
		{"§5.4 text inside a fragmented message", "", []frame{data(opText, false, "a"), data(opText, true, "b")}, StatusProtocolError},
		{"§8.1 text that is not UTF-8", "", []frame{data(opText, true, "\xff\xfe")}, StatusInvalidFramePayload},
		{"§8.1 truncated UTF-8 across fragments", "", []frame{data(opText, false, "\xe2\x82"), data(opContinuation, true, "")}, StatusInvalidFramePayload},
		{"§7.4.1 message over the read limit", "", []frame{data(opBinary, true, strings.Repeat("y", 1025))}, StatusMessageTooBig},
		{"§7.4.1 fragments over the read limit", "", []frame{data(opBinary, false, strings.Repeat("y", 600)), data(opContinuation, true, strings.Repeat("y", 600))}, StatusMessageTooBig},
		{"§5.5.1 close with a 1-byte payload", "", []frame{{h: header{op: opClose, fin: true}, payload: []byte{3}}}, StatusProtocolError},
		{"§5.5.1 close reason not UTF-8", "", []frame{closeFrame(StatusNormalClosure, "\xc0")}, StatusInvalidFramePayload},
	}
	for _, code := range []StatusCode{0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535} {
		cases = append(cases, failureCase{"§7.4 close with invalid code " + strconv.Itoa(int(code)), "", []frame{closeFrame(code, "")}, StatusProtocolError})
	}
	return cases
}

// TestServerFailsTheConnection runs failureCases against a server that
// reads with Read.
func TestServerFailsTheConnection(t *testing.T) {
	for _, tc := range failureCases() {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := echoServer(t, &AcceptOptions{ReadLimit: 1024})
			rc := dialRaw(t, url, tc.extensions)
			rc.send(tc.frames...)
			rc.expectClose(tc.want)
		})
	}
}

func TestServerEchoesValidCloseCodes(t *testing.T) {
	for _, code := range []StatusCode{1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999} {
		t.Run(strconv.Itoa(int(code)), func(t *testing.T) {
			url, _ := echoServer(t, nil)
			rc := dialRaw(t, url, "")
			rc.send(closeFrame(code, "bye"))
			// RFC 6455 §5.5.1: the endpoint typically echoes the code.
			rc.expectClose(code)
		})
	}
}

func TestServerAnswersEmptyCloseWith1000(t *testing.T) {
	url, _ := echoServer(t, nil)
	rc := dialRaw(t, url, "")
	rc.send(frame{h: header{op: opClose, fin: true}})
	rc.expectClose(StatusNormalClosure)
}

// TestControlFramesInterleaveWithFragments: RFC 6455 §5.4 lets control
// frames arrive between a message's fragments; a ping is answered at once
// and the message still arrives whole, with UTF-8 split across fragments.
func TestControlFramesInterleaveWithFragments(t *testing.T) {
	url, _ := echoServer(t, nil)
	rc := dialRaw(t, url, "")
	rc.send(
		data(opText, false, "caf\xc3"),
		data(opPing, true, "p1"),
		data(opContinuation, false, "\xa9 "),
		data(opPong, true, "unsolicited"),
		data(opContinuation, true, "ok"),
	)
	h, p := rc.next()
	if h.op != opPong || string(p) != "p1" {
		t.Fatalf("first frame: opcode %#x payload %q, want the pong for p1", byte(h.op), p)
	}
	h, p = rc.next()
	if h.op != opText || !h.fin || string(p) != "caf\u00e9 ok" {
		t.Fatalf("echo: opcode %#x fin %t payload %q, want one text frame \"caf\u00e9 ok\"", byte(h.op), h.fin, p)
	}
}

func TestServerRejectsNonMinimalLength(t *testing.T) {
	url, _ := echoServer(t, nil)
	rc := dialRaw(t, url, "")
	// A 5-byte text frame whose length uses the 16-bit form (RFC 6455 §5.2).
	b := []byte{0x81, 0x80 | 126, 0, 5, 0, 0, 0, 0}
	b = append(b, "hello"...)
	if _, err := rc.nc.Write(b); err != nil {
		t.Fatalf("write: %v", err)
	}
	rc.expectClose(StatusProtocolError)
}

// TestDecompressionBombCloses1009 sends 10 MiB of zeros deflated into a few
// KiB: the server stops inflating at its read limit and closes with 1009
// (RFC 7692 §8.1, RFC 6455 §7.4.1).
func TestDecompressionBombCloses1009(t *testing.T) {
	c := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: 15})
	bomb, err := c.Compress(nil, make([]byte, 10<<20))
	if err != nil {
		t.Fatalf("Compress: %v", err)
	}
	url, _ := echoServer(t, &AcceptOptions{ReadLimit: 64 << 10})
	rc := dialRaw(t, url, ExtensionName)
	rc.send(frame{h: header{op: opBinary, fin: true, rsv1: true}, payload: bomb})
	rc.expectClose(StatusMessageTooBig)
}

func TestCorruptDeflateCloses1007(t *testing.T) {
	url, _ := echoServer(t, nil)
	rc := dialRaw(t, url, ExtensionName)
	// Block type 3 is invalid in deflate (RFC 1951 §3.2.3).
	rc.send(frame{h: header{op: opBinary, fin: true, rsv1: true}, payload: []byte{0xff, 0xff, 0xff}})
	rc.expectClose(StatusInvalidFramePayload)
}

func TestServerSendsUnmaskedCompressedFrames(t *testing.T) {
	url, _ := echoServer(t, nil)
	rc := dialRaw(t, url, ExtensionName)
	c := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: 15})
	d := NewDecompressor(Direction{ContextTakeover: true, MaxWindowBits: 15}, 0)
	for i := range 3 {
		msg := jsonMessage(uint64(i), 600)
		p, err := c.Compress(nil, msg)
		if err != nil {
			t.Fatalf("Compress: %v", err)
		}
		rc.send(frame{h: header{op: opText, fin: true, rsv1: true}, payload: p})
		h, got := rc.next()
		if !h.rsv1 || h.op != opText {
			t.Fatalf("echo %d: opcode %#x rsv1 %t, want a compressed text frame", i, byte(h.op), h.rsv1)
		}
		plain, err := d.Decompress(nil, got)
		if err != nil || !bytes.Equal(plain, msg) {
			t.Fatalf("echo %d does not decompress to the message sent: %v", i, err)
		}
	}
}
