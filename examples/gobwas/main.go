// Command gobwas shows wsdeflate's codec inside github.com/gobwas/ws, a
// frame-level WebSocket library: gobwas does the handshake and reads and
// writes frames; wsdeflate negotiates permessage-deflate and compresses and
// inflates the messages, with context takeover (RFC 7692).
//
// It is its own module so that the main module stays free of third-party
// WebSocket code.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"

	"github.com/gobwas/ws"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// maxMessage bounds a message after inflating: a small frame must not
// decompress to gigabytes (RFC 7692 §8.1).
const maxMessage = 1 << 20

// newHandler echoes every message at /echo. onMessage, when set, is told
// whether each message arrived compressed (RSV1 on its first frame).
func newHandler(onMessage func(compressed bool)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Negotiate before upgrading: the answer goes into gobwas's
		// handshake response as an extra header.
		resp, params, ok := wsdeflate.Negotiate(r.Header.Values("Sec-WebSocket-Extensions"), wsdeflate.Config{})
		u := ws.HTTPUpgrader{}
		if ok {
			u.Header = http.Header{"Sec-WebSocket-Extensions": {resp}}
		}
		conn, _, _, err := u.Upgrade(r, w)
		if err != nil {
			return
		}
		defer conn.Close()
		e := &echoer{rw: conn, onMessage: onMessage}
		if ok {
			// One of each per connection: their LZ77 windows carry over from
			// message to message.
			if e.comp, err = wsdeflate.NewCompressor(params.Server(), 0); err != nil {
				return
			}
			e.decomp = wsdeflate.NewDecompressor(params.Client(), maxMessage)
		}
		if err := e.serve(); err != nil && !errors.Is(err, io.EOF) {
			log.Printf("gobwas example: %v", err)
		}
	})
}

// echoer runs one connection.
type echoer struct {
	rw        io.ReadWriter
	comp      *wsdeflate.Compressor   // nil without permessage-deflate
	decomp    *wsdeflate.Decompressor // nil without permessage-deflate
	onMessage func(compressed bool)
	msg, out  []byte // reused across messages
}

// serve reads frames until the client closes, reassembling fragmented
// messages and echoing each one.
func (e *echoer) serve() error {
	var op ws.OpCode
	var compressed bool
	var payload []byte
	for {
		f, err := ws.ReadFrame(e.rw)
		if err != nil {
			return err
		}
		if !f.Header.Masked {
			return e.close(ws.StatusProtocolError, "unmasked client frame") // RFC 6455 §5.1
		}
		ws.Cipher(f.Payload, f.Header.Mask, 0)
		switch f.Header.OpCode {
		case ws.OpPing:
			if err := ws.WriteFrame(e.rw, ws.NewPongFrame(f.Payload)); err != nil {
				return err
			}
			continue
		case ws.OpPong:
			continue
		case ws.OpClose:
			return e.close(ws.StatusNormalClosure, "")
		case ws.OpText, ws.OpBinary:
			// RFC 7692 §6: RSV1 marks a compressed message, on its first frame only.
			op, compressed, payload = f.Header.OpCode, f.Header.Rsv1(), payload[:0]
		}
		if compressed && e.decomp == nil {
			return e.close(ws.StatusProtocolError, "RSV1 without permessage-deflate")
		}
		payload = append(payload, f.Payload...)
		if !f.Header.Fin {
			continue
		}
		if err := e.echo(op, compressed, payload); err != nil {
			return err
		}
	}
}

// echo sends one whole message back, compressed when the extension is on.
func (e *echoer) echo(op ws.OpCode, compressed bool, payload []byte) error {
	if e.onMessage != nil {
		e.onMessage(compressed)
	}
	msg := payload
	if compressed {
		var err error
		if e.msg, err = e.decomp.Decompress(e.msg[:0], payload); err != nil {
			return e.close(ws.StatusMessageTooBig, "message too big or corrupt")
		}
		msg = e.msg
	}
	if e.comp == nil {
		return ws.WriteFrame(e.rw, ws.NewFrame(op, true, msg))
	}
	var err error
	if e.out, err = e.comp.Compress(e.out[:0], msg); err != nil {
		return err
	}
	f := ws.NewFrame(op, true, e.out)
	f.Header.Rsv = ws.Rsv(true, false, false)
	return ws.WriteFrame(e.rw, f)
}

// close sends a close frame and ends the connection.
func (e *echoer) close(code ws.StatusCode, reason string) error {
	ws.WriteFrame(e.rw, ws.NewCloseFrame(ws.NewCloseFrameBody(code, reason)))
	if code != ws.StatusNormalClosure {
		return fmt.Errorf("closed with %d: %s", code, reason)
	}
	return io.EOF
}

func main() {
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", newHandler(nil)))
}
