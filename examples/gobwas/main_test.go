package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobwas/httphead"
	"github.com/gobwas/ws"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// messages are JSON of the kind context takeover is for: each repeats
// most of the one before.
func messages(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(`{"id":%d,"user":"squeeze","text":%q}`, i, strings.Repeat("permessage-deflate ", 10)))
	}
	return out
}

// flags records what newHandler's hook saw.
type flags struct {
	mu         sync.Mutex
	compressed []bool
}

func (f *flags) record(c bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.compressed = append(f.compressed, c)
}

func (f *flags) all() []bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bool(nil), f.compressed...)
}

func TestGobwasServerEchoesToWsdeflateDial(t *testing.T) {
	var seen flags
	srv := httptest.NewServer(newHandler(seen.record))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, _, err := wsdeflate.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(wsdeflate.StatusNormalClosure, "")
	offers, err := wsdeflate.ParseExtensions([]string{c.Extensions()})
	if err != nil || len(offers) != 1 || offers[0].Name != wsdeflate.ExtensionName {
		t.Fatalf("agreed extensions %q (%v): want permessage-deflate alone", c.Extensions(), err)
	}
	msgs := messages(20)
	for _, m := range msgs {
		if err := c.Write(ctx, wsdeflate.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
		if _, got, err := c.Read(ctx); err != nil || string(got) != m {
			t.Fatalf("echo %.40q, %v; want %.40q", got, err, m)
		}
	}
	got := seen.all()
	if len(got) != len(msgs) {
		t.Fatalf("the server saw %d messages, want %d", len(got), len(msgs))
	}
	for i, compressed := range got {
		if !compressed {
			t.Errorf("message %d reached the gobwas server without RSV1", i)
		}
	}
}

func TestGobwasClientGetsCompressedFrames(t *testing.T) {
	srv := httptest.NewServer(newHandler(nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	// gobwas offers the extension and checks that the answer is one it
	// offered; wsdeflate then reads the agreed parameters from the answer.
	d := ws.Dialer{Extensions: []httphead.Option{{Name: []byte(wsdeflate.ExtensionName)}}}
	conn, br, hs, err := d.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if br != nil {
		t.Fatal("server sent frames before the client spoke")
	}
	if len(hs.Extensions) != 1 {
		t.Fatalf("extensions agreed: %v, want permessage-deflate", hs.Extensions)
	}
	answer := extensionHeader(hs.Extensions[0])
	params, ok, err := wsdeflate.ParseResponse([]string{answer}, wsdeflate.Config{})
	if err != nil || !ok {
		t.Fatalf("ParseResponse(%q): ok %v, %v", answer, ok, err)
	}
	comp, err := wsdeflate.NewCompressor(params.Client(), 0)
	if err != nil {
		t.Fatal(err)
	}
	decomp := wsdeflate.NewDecompressor(params.Server(), maxMessage)

	var sizes []int
	for _, m := range messages(5) {
		payload, err := comp.Compress(nil, []byte(m))
		if err != nil {
			t.Fatal(err)
		}
		f := ws.NewFrame(ws.OpText, true, payload)
		f.Header.Rsv = ws.Rsv(true, false, false)
		if err := ws.WriteFrame(conn, ws.MaskFrameInPlace(f)); err != nil { // RFC 6455 §5.3: clients mask
			t.Fatal(err)
		}
		reply, err := ws.ReadFrame(conn)
		if err != nil {
			t.Fatal(err)
		}
		if !reply.Header.Rsv1() || reply.Header.OpCode != ws.OpText {
			t.Fatalf("reply frame %+v: want a text frame with RSV1", reply.Header)
		}
		got, err := decomp.Decompress(nil, reply.Payload)
		if err != nil || string(got) != m {
			t.Fatalf("reply inflates to %.40q, %v; want %.40q", got, err, m)
		}
		sizes = append(sizes, len(reply.Payload))
	}
	// Context takeover: the second reply refers back into the first.
	if sizes[1] >= sizes[0] {
		t.Errorf("compressed reply sizes %v: the second is not smaller than the first", sizes)
	}
}

// extensionHeader writes o back as a Sec-WebSocket-Extensions element.
func extensionHeader(o httphead.Option) string {
	var b strings.Builder
	b.Write(o.Name)
	o.Parameters.ForEach(func(k, v []byte) bool {
		b.WriteString("; ")
		b.Write(k)
		if len(v) > 0 {
			b.WriteByte('=')
			b.Write(v)
		}
		return true
	})
	return b.String()
}
