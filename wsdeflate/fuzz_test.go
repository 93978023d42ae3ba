package wsdeflate

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func FuzzParseExtensions(f *testing.F) {
	for _, s := range []string{
		"permessage-deflate",
		"permessage-deflate; client_max_window_bits; server_max_window_bits=10",
		`permessage-deflate; server_max_window_bits="12", x-foo; a=b`,
		"permessage-deflate; server_no_context_takeover; client_no_context_takeover",
		`x; a="\"", , y`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		offers, err := ParseExtensions([]string{header})
		// Formatting what was parsed and parsing it again gives the same
		// offers: the parser and String agree on the grammar.
		if err == nil && len(offers) > 0 {
			var parts []string
			for _, o := range offers {
				parts = append(parts, o.String())
			}
			again, err := ParseExtensions(parts)
			if err != nil || !reflect.DeepEqual(again, offers) {
				t.Fatalf("%q parsed to %+v, formatted as %q, re-parsed to %+v, %v", header, offers, parts, again, err)
			}
		}
		// Whatever a server answers must satisfy a client that sent the same
		// header, and agree on the same Params.
		resp, sp, ok := Negotiate([]string{header}, Config{ClientMaxWindowBits: 10})
		if !ok {
			return
		}
		if _, _, err := ParseResponse([]string{resp}, Config{}); err != nil {
			t.Fatalf("Negotiate(%q) answered %q, which a client rejects: %v", header, resp, err)
		}
		if sp.ServerMaxWindowBits < 8 || sp.ServerMaxWindowBits > 15 || sp.ClientMaxWindowBits < 8 || sp.ClientMaxWindowBits > 15 {
			t.Fatalf("Negotiate(%q) agreed window bits out of range: %+v", header, sp)
		}
	})
}

// fuzzLimit keeps a decompression bomb in the corpus from costing more.
const fuzzLimit = 1 << 20

func FuzzDecompress(f *testing.F) {
	// Valid streams, with and without context takeover, for the fuzzer to
	// mutate; plus the RFC 7692 vectors.
	for _, ct := range []bool{true, false} {
		c := newCompressor(Direction{ContextTakeover: ct, MaxWindowBits: 15})
		first, _ := c.Compress(nil, jsonMessage(1, 600))
		second, _ := c.Compress(nil, jsonMessage(2, 600))
		f.Add(first, second, ct)
	}
	f.Add(helloOneBlock, helloShared, true)
	f.Add(helloBFINAL, helloShared, true)
	f.Add(helloStored, helloTwoBlock, false)
	f.Fuzz(func(t *testing.T, first, second []byte, takeover bool) {
		dir := Direction{ContextTakeover: takeover, MaxWindowBits: 15}
		d := NewDecompressor(dir, fuzzLimit)
		for _, payload := range [][]byte{first, second} {
			out, err := d.Decompress(nil, payload)
			if len(out) > fuzzLimit {
				t.Fatalf("Decompress returned %d bytes past the %d limit", len(out), fuzzLimit)
			}
			if err != nil && !errors.Is(err, ErrMessageTooBig) && len(out) != 0 {
				t.Fatalf("Decompress failed (%v) but returned %d bytes", err, len(out))
			}
			if err != nil {
				return // the connection would be failed here
			}
		}
		// Any bytes, sent as two messages, survive a round trip.
		c := newCompressor(dir)
		d = NewDecompressor(dir, 0)
		for _, msg := range [][]byte{first, second} {
			wire, err := c.Compress(nil, msg)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.Decompress(nil, wire)
			if err != nil || !bytes.Equal(got, msg) {
				t.Fatalf("round trip of %d bytes failed: %v", len(msg), err)
			}
		}
	})
}
