package wsdeflate

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// streamEchoServer is echoServer with Reader and Writer: each message is
// copied through as it arrives.
func streamEchoServer(t testing.TB, opts *AcceptOptions) (url string, negotiated chan string) {
	t.Helper()
	return wsServer(t, opts, func(ctx context.Context, c *Conn) error {
		typ, mr, err := c.Reader(ctx)
		if err != nil {
			return err
		}
		mw, err := c.Writer(ctx, typ)
		if err != nil {
			return err
		}
		_, err = io.Copy(mw, mr)
		if cerr := mw.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// withAndWithoutCompression runs test in two subtests, "compressed" and
// "uncompressed", each with a client dialled to the server that start makes
// with permessage-deflate enabled or disabled.
func withAndWithoutCompression(t *testing.T, start func(testing.TB, *AcceptOptions) (string, chan string), test func(t *testing.T, ctx context.Context, c *Conn)) {
	for _, tc := range []struct {
		name string
		opts AcceptOptions
	}{
		{"compressed", AcceptOptions{}},
		{"uncompressed", AcceptOptions{Compression: Config{Disabled: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := start(t, &tc.opts)
			c, ctx := dialForTest(t, url)
			defer c.Close(StatusNormalClosure, "")
			test(t, ctx, c)
		})
	}
}

func TestReaderStreamsMessages(t *testing.T) {
	withAndWithoutCompression(t, streamEchoServer, func(t *testing.T, ctx context.Context, c *Conn) {
		for i, size := range []int{0, 10, 1000, 200 << 10} {
			msg := jsonMessage(uint64(i), size)
			if err := c.Write(ctx, MessageText, msg); err != nil {
				t.Fatalf("Write: %v", err)
			}
			typ, mr, err := c.Reader(ctx)
			if err != nil {
				t.Fatalf("Reader: %v", err)
			}
			got, err := io.ReadAll(mr)
			if err != nil {
				t.Fatalf("reading message %d: %v", i, err)
			}
			if typ != MessageText || !bytes.Equal(got, msg) {
				t.Fatalf("message %d: type %d, %d bytes; sent text, %d bytes", i, typ, len(got), len(msg))
			}
		}
	})
}

// TestStreamingServerFailsTheConnection runs the conformance cases against
// a server that reads with Reader instead of Read.
func TestStreamingServerFailsTheConnection(t *testing.T) {
	for _, tc := range failureCases() {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := streamEchoServer(t, &AcceptOptions{ReadLimit: 1024})
			rc := dialRaw(t, url, tc.extensions)
			rc.send(tc.frames...)
			rc.expectClose(tc.want)
		})
	}
}
