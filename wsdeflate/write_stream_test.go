package wsdeflate

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWriterStreamsFragmentedMessages(t *testing.T) {
	withAndWithoutCompression(t, echoServer, func(t *testing.T, ctx context.Context, c *Conn) {
		for _, size := range []int{0, 10, 100 << 10} {
			msg := jsonMessage(uint64(size), size)
			w, err := c.Writer(ctx, MessageText)
			if err != nil {
				t.Fatalf("Writer: %v", err)
			}
			for p := msg; len(p) > 0; {
				n := min(len(p), 999)
				if _, err := w.Write(p[:n]); err != nil {
					t.Fatalf("Write: %v", err)
				}
				p = p[n:]
			}
			if err := w.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			_, got, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !bytes.Equal(got, msg) {
				t.Fatalf("streamed message of %d bytes echoed as %d different bytes", len(msg), len(got))
			}
		}
	})
}

// TestWriterSetsRSV1OnlyOnTheFirstFragment checks RFC 7692 §6 on the wire:
// a compressed message sent in fragments marks only its first frame.
func TestWriterSetsRSV1OnlyOnTheFirstFragment(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.Write(jsonMessage(uint64(i), 1000))
	}
	msg := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, nil)
		if err != nil {
			return
		}
		mw, err := c.Writer(r.Context(), MessageText)
		if err != nil {
			return
		}
		mw.Write([]byte(msg))
		mw.Close()
		c.Read(context.Background())
	}))
	defer srv.Close()
	rc := dialRaw(t, "ws://"+strings.TrimPrefix(srv.URL, "http://"), ExtensionName)
	var payload []byte
	for i := 0; ; i++ {
		h, p := rc.next()
		if i == 0 && (h.op != opText || !h.rsv1) {
			t.Fatalf("first fragment: opcode %#x rsv1 %t, want text with RSV1", byte(h.op), h.rsv1)
		}
		if i > 0 && (h.op != opContinuation || h.rsv1) {
			t.Fatalf("fragment %d: opcode %#x rsv1 %t, want a continuation without RSV1", i, byte(h.op), h.rsv1)
		}
		payload = append(payload, p...)
		if h.fin {
			if i == 0 {
				t.Fatalf("message of %d bytes came in one frame; want fragments", len(msg))
			}
			break
		}
	}
	d := NewDecompressor(Direction{ContextTakeover: true, MaxWindowBits: 15}, 0)
	got, err := d.Decompress(nil, payload)
	if err != nil || string(got) != msg {
		t.Fatalf("fragments do not decompress to the message: %v", err)
	}
}
