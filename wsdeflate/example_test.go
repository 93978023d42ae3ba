package wsdeflate_test

import (
	"fmt"

	"github.com/squeezehttp/squeeze/wsdeflate"
)

// A server and a client agree on permessage-deflate and exchange messages
// that share their compression context.
func Example() {
	client := wsdeflate.Config{}
	offer := client.Offer() // the client's Sec-WebSocket-Extensions

	// Server: answer the offer, asking the client for a 4 KiB window.
	resp, serverParams, ok := wsdeflate.Negotiate([]string{offer}, wsdeflate.Config{ClientMaxWindowBits: 12})
	fmt.Println(offer)
	fmt.Println(resp, ok)

	// Client: check the answer; an error would mean failing the connection.
	clientParams, ok, err := wsdeflate.ParseResponse([]string{resp}, client)
	if err != nil || !ok {
		panic(err)
	}

	// Client to server.
	send, err := wsdeflate.NewCompressor(clientParams.Client(), 0) // 0: DefaultLevel
	if err != nil {
		panic(err)
	}
	recv := wsdeflate.NewDecompressor(serverParams.Client(), 1<<20)
	msg := []byte(`{"type":"quote","symbol":"SQZ","bid":101.25,"ask":101.27,"venue":"XNAS","ts":"2026-12-02T13:20:00Z","seq":1,"conditions":["regular","odd-lot"],"currency":"USD","exchange_ts":"2026-12-02T13:19:59.998Z"}`)
	var wire, got []byte
	for i := range 3 {
		wire, _ = send.Compress(wire[:0], msg)
		got, err = recv.Decompress(got[:0], wire)
		if err != nil {
			panic(err)
		}
		fmt.Printf("message %d: %d bytes, %d on the wire, intact: %v\n", i, len(msg), len(wire), string(got) == string(msg))
	}
	// Output:
	// permessage-deflate; client_max_window_bits
	// permessage-deflate; client_max_window_bits=12 true
	// message 0: 201 bytes, 157 on the wire, intact: true
	// message 1: 201 bytes, 5 on the wire, intact: true
	// message 2: 201 bytes, 5 on the wire, intact: true
}

// An idle connection releases its encoders and keeps only its windows; the
// context survives.
func ExampleCompressor_Release() {
	dir := wsdeflate.Direction{ContextTakeover: true, MaxWindowBits: 15}
	c, err := wsdeflate.NewCompressor(dir, 0)
	if err != nil {
		panic(err)
	}
	d := wsdeflate.NewDecompressor(dir, 0)
	msg := []byte(`{"event":"presence","user":"ada","status":"online","devices":["phone","laptop"],"since":"2026-12-02T13:20:00Z","room":"general"}`)

	wire, _ := c.Compress(nil, msg)
	d.Decompress(nil, wire)
	c.Release() // the connection went idle
	d.Release()

	wire, _ = c.Compress(wire[:0], msg)
	got, err := d.Decompress(nil, wire)
	fmt.Println(len(wire) < len(msg)/4, string(got) == string(msg), err)
	// Output: true true <nil>
}
