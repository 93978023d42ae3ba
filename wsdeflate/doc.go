// Package wsdeflate implements the WebSocket permessage-deflate extension
// (RFC 7692): negotiating it in the opening handshake, and compressing and
// decompressing messages with an LZ77 context that lives as long as the
// connection.
//
// # Negotiation
//
// A server passes the client's Sec-WebSocket-Extensions header values to
// [Negotiate], which accepts the first acceptable permessage-deflate offer and
// declines (never fails) the rest (RFC 7692 §5, §7.1). A client sends
// [Config.Offer] and checks the server's answer with [ParseResponse], which
// fails on anything RFC 7692 §7.1 tells a client to fail on. Both give
// [Params]: what was agreed for each direction. This part uses only the
// standard library.
//
// # Codec
//
// Each endpoint compresses what it sends with a [Compressor] and inflates what
// it receives with a [Decompressor]:
//
//	c := wsdeflate.NewCompressor(params.Server())        // on the server
//	d := wsdeflate.NewDecompressor(params.Client(), 1<<20)
//	payload, err := c.Compress(payload[:0], msg)         // RSV1 frame payload
//	msg, err = d.Decompress(msg[:0], payload)
//
// Output is appended to the caller's buffer; in steady state a message costs
// no allocation and no encoder or decoder setup. With context takeover the
// compressor keeps one klauspost flate.Writer and flushes it per message
// (RFC 7692 §7.2.1), and the decompressor keeps one flate reader fed by a
// source that never reads past the message, so the reader continues from one
// message to the next instead of being re-seeded with a dictionary. The
// window survives a BFINAL block (RFC 7692 §7.2.3.4). [Compressor.Writer] and
// [Decompressor.Reader] are the streaming forms for large or fragmented
// messages. A decompressed-size limit is enforced while inflating
// ([ErrMessageTooBig]).
//
// # Memory per connection
//
// The live encoder and decoder are large (a klauspost Writer is about 1 MB,
// a reader about 35 KB), so they are shared through pools. A connection that
// goes idle calls [Compressor.Release] and [Decompressor.Release]; it then
// keeps only its windows, and the next message takes an encoder from the pool
// and re-seeds it. Measured over 1 000 endpoints, one endpoint (compressor +
// decompressor, both directions with context takeover) retains:
//
//	window bits   idle (released)   active (live encoder + reader)
//	15            40 KiB            0.85 MiB
//	12             8.4 KiB          1.1 MiB
//	 9             1.4 KiB          1.1 MiB
//	no takeover    0.4 KiB          0.4 KiB (encoders pooled per message)
//
// coder/websocket, for comparison, keeps about 1.2 MiB per endpoint with
// context takeover whether the connection is busy or idle. The idle
// compressor keeps 8 KiB of history even at 15 bits (re-seeding from more
// costs more time than the bytes it saves); the idle decompressor keeps the
// whole window the peer may refer to, so asking the peer for fewer window
// bits ([Config.ClientMaxWindowBits] on a server) is what shrinks it further.
//
// Undoing a Release costs a copy of the window for the decompressor (about
// 4 µs) and one 8 KiB compression for the compressor (about 32 µs), against
// about 35 µs for a whole 1 KB JSON round trip, so a connection should
// release after a short idle period (say, when nothing has been sent or
// received for a second), not after every message. The benchmarks module
// measures releasing after every message too ("ours-release").
//
// # Window bits
//
// A compressor limited to fewer than 15 window bits uses klauspost's
// bounded-window encoder, which never refers further back than 2^bits bytes,
// 8 bits (a 256-byte window) included, so an offer of server_max_window_bits=8
// is honoured rather than declined. zlib, which most peers use, compresses
// with 9 bits when told 8; a server therefore never asks a client for fewer
// than 9 bits, and a decompressor keeps at least 512 bytes of history.
//
// # Limits
//
// klauspost's encoder stores messages shorter than 128 bytes without looking
// for matches and starts its history afresh after one, so context takeover
// does not help messages that small (coder/websocket does not compress them
// at all).
//
// See the examples for a complete negotiation and round trip.
package wsdeflate
