package wsdeflate

import (
	"context"
	"testing"
)

// BenchmarkEcho measures a client-server round trip over loopback: one
// message written by the client, echoed by the server, read back. Both ends
// are ours, so each round trip compresses and decompresses twice.
func BenchmarkEcho(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts AcceptOptions
		size int
	}{
		{"1KB/takeover", AcceptOptions{}, 1 << 10},
		{"1KB/no-takeover", AcceptOptions{Compression: Config{ServerNoContextTakeover: true, ClientNoContextTakeover: true}}, 1 << 10},
		{"1KB/uncompressed", AcceptOptions{Compression: Config{Disabled: true}}, 1 << 10},
		{"16KB/takeover", AcceptOptions{}, 16 << 10},
	} {
		b.Run(bc.name, func(b *testing.B) {
			url, _ := echoServer(b, &bc.opts)
			ctx := context.Background()
			c, _, err := Dial(ctx, url, nil)
			if err != nil {
				b.Fatalf("Dial: %v", err)
			}
			defer c.Close(StatusNormalClosure, "")
			msgs := make([][]byte, 64)
			for i := range msgs {
				msgs[i] = jsonMessage(uint64(i), bc.size)
			}
			b.ReportAllocs()
			b.SetBytes(int64(bc.size))
			i := 0
			for b.Loop() {
				if err := c.Write(ctx, MessageText, msgs[i%len(msgs)]); err != nil {
					b.Fatalf("Write: %v", err)
				}
				if _, _, err := c.Read(ctx); err != nil {
					b.Fatalf("Read: %v", err)
				}
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
