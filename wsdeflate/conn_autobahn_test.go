package wsdeflate

import (
	"bytes"

	"math/rand/v2"
	"testing"
	"time"
)

// autobahnOffer is one row of the Autobahn testsuite's section 13
// (compression with different parameters), plus the server-side
// parameters it leaves out: the offer a raw client sends, and the Config
// that describes its first element (to check the answer against).
type autobahnOffer struct {
	name  string
	offer string
	cfg   Config
}

var autobahnOffers = []autobahnOffer{
	{"13.1 default", "permessage-deflate", Config{}},
	{"13.2 client_no_context_takeover", "permessage-deflate; client_no_context_takeover", Config{ClientNoContextTakeover: true}},
	{"13.3 client_max_window_bits=8", "permessage-deflate; client_max_window_bits=8", Config{ClientMaxWindowBits: 8}},
	{"13.4 client_max_window_bits=15", "permessage-deflate; client_max_window_bits=15", Config{ClientMaxWindowBits: 15}},
	{"13.5 client_no_context_takeover, 8 bits", "permessage-deflate; client_no_context_takeover; client_max_window_bits=8",
		Config{ClientNoContextTakeover: true, ClientMaxWindowBits: 8}},
	{"13.6 client_no_context_takeover, 15 bits", "permessage-deflate; client_no_context_takeover; client_max_window_bits=15",
		Config{ClientNoContextTakeover: true, ClientMaxWindowBits: 15}},
	{"13.7 several offers, first taken", "permessage-deflate; client_no_context_takeover; client_max_window_bits=8, permessage-deflate; client_max_window_bits, permessage-deflate",
		Config{ClientNoContextTakeover: true, ClientMaxWindowBits: 8}},
	{"server_max_window_bits=9", "permessage-deflate; server_max_window_bits=9; client_max_window_bits", Config{ServerMaxWindowBits: 9}},
	{"server_no_context_takeover", "permessage-deflate; server_no_context_takeover", Config{ServerNoContextTakeover: true}},
}

// autobahnPayloads are the kinds of section 12 (compression with different
// payloads): text that compresses well, and binary that does not.
func autobahnPayload(kind string, size int, seed uint64) (opcode, []byte) {
	if kind == "text" {
		return opText, jsonMessage(seed, size)[:size]
	}
	r := rand.New(rand.NewPCG(seed, uint64(size)))
	p := make([]byte, size)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return opBinary, p
}

// TestAutobahnCompressionSections runs sections 12 and 13 of the Autobahn
// testsuite in our own form: for each offer of section 13, messages of
// section 12's sizes (16 bytes to 128 KiB, text and binary) are compressed
// by a raw-frame client under the agreed parameters, fragmented at 16 KiB
// with RSV1 on the first frame only (RFC 7692 §6.1), echoed by a server
// built on Accept, reassembled and inflated under the server's parameters,
// and compared byte for byte.
func TestAutobahnCompressionSections(t *testing.T) {
	t.Parallel()
	sizes := []int{16, 64, 256, 1024, 4096, 16384, 65536, 131072}
	for _, o := range autobahnOffers {
		t.Run(o.name, func(t *testing.T) {
			url, _ := echoServer(t, nil)
			rc := dialRaw(t, url, o.offer)
			p, ok, err := ParseResponse(rc.resp.Header.Values("Sec-WebSocket-Extensions"), o.cfg)
			if err != nil || !ok {
				t.Fatalf("offer %q answered %q: ok=%v, %v", o.offer, rc.resp.Header.Get("Sec-WebSocket-Extensions"), ok, err)
			}
			c := newCompressor(p.Client())
			d := NewDecompressor(p.Server(), 0)
			for _, kind := range []string{"text", "binary"} {
				for _, size := range sizes {
					count := 10
					if size >= 65536 {
						count = 3
					}
					for i := range count {
						op, msg := autobahnPayload(kind, size, uint64(i))
						rc.nc.SetDeadline(time.Now().Add(10 * time.Second))
						wire, err := c.Compress(nil, msg)
						if err != nil {
							t.Fatal(err)
						}
						rc.send(fragments(op, wire, 16<<10)...)
						got, compressed := rc.message(op)
						if compressed {
							// RFC 7692 §7.1.2.1: the server's window bound holds.
							if ds := distances(t, got); len(ds) > 0 && maxInt(ds) > 1<<p.ServerMaxWindowBits {
								t.Fatalf("%s %d bytes: echo refers %d bytes back, agreed window is %d", kind, size, maxInt(ds), 1<<p.ServerMaxWindowBits)
							}
							got, err = d.Decompress(nil, got)
						} else if size >= 128 {
							t.Fatalf("%s %d bytes: echo sent uncompressed", kind, size)
						}
						if err != nil || !bytes.Equal(got, msg) {
							t.Fatalf("%s %d bytes, message %d: echo inflates to %d bytes (%v)", kind, size, i, len(got), err)
						}
					}
				}
			}
		})
	}
}

// fragments splits a compressed payload into frames of at most n bytes,
// RSV1 on the first only (RFC 7692 §6.1).
func fragments(op opcode, payload []byte, n int) []frame {
	var fs []frame
	for first := true; first || len(payload) > 0; first = false {
		k := min(n, len(payload))
		h := header{op: opContinuation, fin: k == len(payload)}
		if first {
			h.op, h.rsv1 = op, true
		}
		fs = append(fs, frame{h: h, payload: payload[:k]})
		payload = payload[k:]
	}
	return fs
}

// message reads one data message of type op from the server and returns
// its payload and whether it is compressed, checking RSV1 is never set on a
// continuation frame. (A Conn sends messages under 128 bytes uncompressed.)
func (rc *rawClient) message(op opcode) (payload []byte, compressed bool) {
	rc.t.Helper()
	for frames := 0; ; {
		h, p := rc.next()
		if h.op == opPing || h.op == opPong {
			continue // control frames may come between fragments
		}
		first := frames == 0
		frames++
		switch {
		case first && h.op != op:
			rc.t.Fatalf("first frame: opcode %#x, want %#x", byte(h.op), byte(op))
		case !first && (h.op != opContinuation || h.rsv1):
			rc.t.Fatalf("continuation frame: opcode %#x rsv1 %t, want 0x0 without rsv1 (RFC 7692 §6.1)", byte(h.op), h.rsv1)
		}
		compressed = compressed || h.rsv1
		payload = append(payload, p...)
		if h.fin {
			return payload, compressed
		}
	}
}
