package wsdeflate

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzConnRead feeds arbitrary bytes to a server connection with
// permessage-deflate negotiated and a small read limit: whatever arrives,
// Read must return messages or an error, never panic or hang, and a text
// message it returns must be UTF-8.
func FuzzConnRead(f *testing.F) {
	masked := func(b []byte) []byte { // client frames carry a zero key
		return append(append([]byte{b[0], b[1] | 0x80}, 0, 0, 0, 0), b[2:]...)
	}
	c := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: 15})
	comp, _ := c.Compress(nil, jsonMessage(1, 300))
	f.Add(masked([]byte{0x81, 0x02, 'h', 'i'}))
	f.Add(append(masked(append([]byte{0xC1, 0x7E, byte(len(comp) >> 8), byte(len(comp))}, comp...)), masked([]byte{0x89, 0x00})...))
	f.Add(append(masked([]byte{0x01, 0x01, 0xe2}), masked([]byte{0x80, 0x02, 0x82, 0xac})...))
	f.Add(masked([]byte{0x88, 0x02, 0x03, 0xe8}))
	f.Fuzz(func(t *testing.T, wire []byte) {
		server, client := net.Pipe()
		defer client.Close()
		go io.Copy(io.Discard, client) // whatever the server answers
		go func() {
			client.Write(wire)
			client.Close()
		}()
		p := Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}
		opts := connOptions{readLimit: 4096, idleRelease: -1}
		if err := opts.check("test"); err != nil {
			t.Fatal(err)
		}
		conn := newConn(server, bufio.NewReader(server), bufio.NewWriter(server), connConfig{connOptions: opts, params: &p})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for range 100 {
			typ, msg, err := conn.Read(ctx)
			if err != nil {
				// The client has closed after writing, so every Read ends
				// well before the deadline; reaching it (the pipe's read
				// deadline may fire just before ctx is done) means Read hung.
				if errors.Is(err, os.ErrDeadlineExceeded) || ctx.Err() != nil {
					t.Fatalf("Read still blocked after 5 s on %d bytes of input: %v", len(wire), err)
				}
				return
			}
			if typ == MessageText && !utf8.Valid(msg) {
				t.Fatalf("Read returned a text message that is not UTF-8: %q", msg)
			}
		}
	})
}
