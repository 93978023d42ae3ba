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
//	c, err := wsdeflate.NewCompressor(params.Server(), 0) // on the server; 0: DefaultLevel
//	d := wsdeflate.NewDecompressor(params.Client(), 0)    // 0: DefaultReadLimit
//	payload, err := c.Compress(payload[:0], msg)          // RSV1 frame payload
//	msg, err = d.Decompress(msg[:0], payload)
//
// Output is appended to the caller's buffer; in steady state a message costs
// no allocation and no encoder or decoder setup. With context takeover the
// compressor keeps one encoder and flushes it per message (RFC 7692
// §7.2.1) — at [DefaultLevel] wsdeflate's own, which also reuses the
// connection's Huffman codes while they fit the next message within 3% —
// and the decompressor keeps one flate reader fed by a
// source that never reads past the message, so the reader continues from one
// message to the next instead of being re-seeded with a dictionary. The
// window survives a BFINAL block (RFC 7692 §7.2.3.4). [Compressor.Writer] and
// [Decompressor.Reader] are the streaming forms for large or fragmented
// messages. A decompressed-size limit is enforced while inflating
// ([ErrMessageTooBig]).
//
// # Connection
//
// [Accept] completes the server side of the opening handshake on an
// http.ResponseWriter (an HTTP/1.1 Upgrade, RFC 6455 §4.2.2, or an HTTP/2
// Extended CONNECT, RFC 8441; see below), checking Origin against the
// request's own host unless [AcceptOptions] lists others, and [Dial] opens
// the client side to a ws:// or wss:// URL (RFC 6455 §4.1).
// Both negotiate permessage-deflate unless told not to and return a [Conn]:
// [Conn.Extensions] reports what was agreed. [Conn.Read] and [Conn.Write]
// move whole messages, [Conn.Reader] and [Conn.Writer] stream them as
// fragments, [Conn.Ping] waits for the matching pong and [Conn.Close] runs the
// close handshake (RFC 6455 §7). A Conn starts no goroutine: Read answers
// pings and notices pongs and close frames, so one goroutine reads while any
// number write. Messages under [DefaultCompressionThreshold] bytes are sent
// uncompressed unless [AcceptOptions.CompressionThreshold] says otherwise
// (see Limits).
//
// A connection gives its live encoder and decoder back to the pools, and
// drops its message buffers, once no message has gone either way for
// [AcceptOptions.IdleRelease] or [DialOptions.IdleRelease]
// ([DefaultIdleRelease], one second, by default; a negative value keeps the
// encoder and decoder but still drops the buffers). The next message
// re-acquires them, which costs about as much as compressing the window
// once, which is why the default waits a second rather than releasing after
// every message. The release is a runtime timer, not a goroutine, and it
// re-arms only when messages flow again.
//
// # Memory per connection
//
// The live encoder and decoder are large, so they are shared through pools
// and held only while messages flow. One endpoint (compressor and
// decompressor, context takeover both ways) keeps, at 2^bits window bits:
//
//   - idle: the window it inflates against (2^bits bytes, at least 512), at
//     most 8 KiB of history to re-seed its compressor from, and at most
//     4 KiB of other state — at most 44 KiB at 15 bits, 12 KiB at 12 and
//     5 KiB at 9;
//   - while messages flow, on top of that: the encoder, at most 288 KiB at
//     [DefaultLevel] and 1.25 MiB at levels 2 to 9 (klauspost's), and a
//     reader of at most 48 KiB; and message buffers that grow with the
//     messages and go with the idle release.
//
// Without context takeover an idle endpoint keeps no window. A connection
// pair (both endpoints, with the HTTP server's state for the connection)
// that has echoed a 1 MiB message each way keeps at most 256 KiB once idle.
// Tests enforce each of these bounds (TestEndpointMemoryBounds,
// TestIdleConnectionReturnsToIdleMemoryAfterLargeMessage); the benchmarks
// module measures the figures, side by side with coder/websocket and
// gorilla/websocket.
//
// The idle compressor keeps 8 KiB of history even at 15 bits (re-seeding
// from more costs more time than the bytes it saves); the idle decompressor
// keeps the whole window the peer may refer to, so asking the peer for
// fewer window bits ([Config.ClientMaxWindowBits] on a server) is what
// shrinks it further. Undoing a Release costs a copy of the window for the
// decompressor and one compression of the 8 KiB history for the
// compressor, so a connection should release after a short idle period,
// not after every message.
//
// # WebSockets over HTTP/2
//
// Browsers open a WebSocket as a stream of the page's HTTP/2 connection
// when the server sends SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441 §3):
// a CONNECT with :protocol websocket, Sec-WebSocket-Version and
// Sec-WebSocket-Extensions, and no key, Upgrade or Connection. Accept
// answers it with 200 and the same negotiation as over HTTP/1.1 (no
// Sec-WebSocket-Accept), and the [Conn] then runs over the stream: frames
// are read from the request body and written to the ResponseWriter, each
// flushed as it is written, and deadlines go through
// http.ResponseController (the server's ReadTimeout and WriteTimeout are
// cleared as they are for a hijacked connection). Everything else —
// framing, limits, compression, the idle release, Close's bound — is the
// same code. The stream ending without a close frame (the client's
// END_STREAM or RST_STREAM, the connection dropping) is a closed
// connection: Read fails and [CloseStatus] is -1, as with 1006. A deadline
// or a Close that cuts a frame short resets the stream; the connection the
// stream rides on is untouched. [Conn.NetConn] returns a net.Conn for the
// stream, with the connection's addresses.
//
// net/http's HTTP/2 server sends the setting only when the process starts
// with GODEBUG=http2xconnect=1 (it reads the variable once, before main;
// //go:debug and os.Setenv in init are too late or refused). Turn it on
// only when every WebSocket endpoint behind the server answers Extended
// CONNECT, as Accept does: Chromium, once offered it, never falls back to
// HTTP/1.1, so an endpoint that refuses the CONNECT leaves the page's
// socket closed with 1006. Register WebSocket handlers for the path alone
// ("/ws"), not with a method ("GET /ws"): the CONNECT would get 405 from
// the mux. encoding.Handler passes the CONNECT through untouched, as it
// does an Upgrade.
//
// Over HTTP/2 the Conn lives inside its handler: the stream ends when the
// handler returns, and net/http forbids writing to the ResponseWriter
// after that. A handler keeps running while the Conn is in use, makes
// sure the goroutines writing to it have stopped, and calls [Conn.Close]
// (or sees Read fail) before returning; once Close returns, no write
// reaches the ResponseWriter.
//
// [Dial] sends an Extended CONNECT through [DialOptions.HTTPClient] when its
// Transport can: golang.org/x/net/http2's Transport does, to a server that
// sent the setting (net/http's own Transport refuses the :protocol header).
// Otherwise it dials HTTP/1.1 as usual. The examples/http2 module shows
// both ends.
//
// # Deadlines and closing
//
// A context bounds the call it is passed to and nothing after it: its
// deadline is on the socket while that call's frames are written or read,
// and gone when the call returns. Frames that no caller's context covers
// carry their own bound: a pong, or a close frame that Read sends, that
// cannot go out within 5 seconds closes the connection. Read answers a ping
// without waiting behind a message being written: the pong follows that
// message's frame (RFC 6455 §5.5.3 lets it answer only the latest of
// several pings). Write, Writer and Ping give up when their context ends
// while they wait behind such a frame, and the connection stays usable.
//
// [Conn.Close] returns within 5 seconds whatever the peer does: waiting for
// the frame being written to finish, sending the close frame and receiving
// the peer's all fit in that bound, after which the socket is closed. A
// frame that a peer which stopped reading still holds then is cut short,
// and the Write, Writer or Ping writing it returns an error wrapping
// [ErrClosed].
//
// # Window bits
//
// A compressor limited to fewer than 15 window bits never refers further
// back than 2^bits bytes (our encoder at level 1, klauspost's bounded-window
// encoder above), 8 bits (a 256-byte window) included, so an offer of server_max_window_bits=8
// is honoured rather than declined. zlib, which most peers use, compresses
// with 9 bits when told 8; a server therefore never asks a client for fewer
// than 9 bits, and a decompressor keeps at least 512 bytes of history.
//
// # Limits
//
// Every size a peer controls is bounded. A message larger than the read
// limit ([DefaultReadLimit] unless [AcceptOptions.ReadLimit],
// [DialOptions.ReadLimit], [Conn.SetReadLimit] or [NewDecompressor]'s limit
// say otherwise; a negative value or math.MaxInt64 means no limit beyond
// memory) fails the
// connection with 1009, counted after decompression and checked while
// inflating. A frame's payload buffer grows as its bytes arrive, to at most
// twice what has arrived, never to the length its header announces: a
// server connection stalled in a frame that announces 2 MiB and sends
// nothing has allocated at most 64 KiB, its handshake included
// (TestAnnouncedPayloadIsNotAllocatedBeforeItArrives). [Dial] reads at most
// 64 KiB of the server's handshake response. Options the package cannot
// honour fail [Accept] or [Dial] with an error naming the field.
//
// A [Conn] sends messages shorter than [DefaultCompressionThreshold] (128)
// bytes uncompressed, as coder/websocket does: a deflate block header costs
// a few bytes, and the compressor at levels above 1 (klauspost's) stores
// such messages without looking for matches and restarts its history after
// one.
//
// # Coming from coder/websocket or gorilla/websocket
//
// [Accept], [Dial], [Conn.Read], [Conn.Write], [Conn.Reader],
// [Conn.Writer], [Conn.Ping], [Conn.CloseRead] and [Conn.Close] follow
// coder/websocket's shapes: a ctx per call, and whole messages or streams.
// [CloseError] and [CloseStatus] work
// as coder's do: var ce CloseError; errors.As(err, &ce) finds the peer's
// close frame (a *CloseError target works too), and CloseStatus is -1 when
// no close frame was received. Differences: Read returns a slice the caller
// owns, as coder's does, but the read limit defaults to 1 MiB, not 32 KiB
// (SetReadLimit(-1) lifts it in both); compression is negotiated by
// default, with context takeover ([Config.Disabled] in
// [AcceptOptions.Compression] turns it off; coder's default is off), and
// the live encoder and decoder of context takeover go back to shared pools
// when the connection goes idle instead of being kept for its life. Compared with gorilla/websocket:
// there is no separate Upgrader (Accept takes its options), a ctx per call
// replaces SetReadDeadline and SetWriteDeadline, Write may be called from
// any number of goroutines at once, and context takeover is supported.
//
// # Conformance tests
//
// The tests drive a server built on Accept with hand-made frames and check
// the status code of the close frame it answers with:
//
//   - RFC 6455 §5.1–5.2 framing: an unmasked client frame, reserved data
//     (0x3) and control (0xB) opcodes, RSV2 or RSV3 set, and a payload
//     length not in its minimal form each close with 1002; server frames
//     are unmasked.
//   - §5.4–5.5 fragmentation and control frames: a continuation with no
//     message, a text frame inside a fragmented message, a fragmented ping
//     and a 126-byte ping close with 1002; a ping and an unsolicited pong
//     between fragments are answered or ignored and the message arrives
//     whole.
//   - §5.5.1 and §7.4 close: a 1-byte close payload and the codes 0, 999,
//     1004, 1005, 1006, 1015, 1016, 2999, 5000 and 65535 close with 1002, a
//     reason that is not UTF-8 with 1007; the valid codes 1000–1003,
//     1007–1014, 3000, 3999, 4000 and 4999 are echoed, and an empty close is
//     answered with 1000.
//   - §8.1 UTF-8: invalid text, and text whose UTF-8 is truncated at the end
//     of the last fragment, close with 1007; a character split across
//     fragments is accepted.
//   - RFC 7692 §6 RSV1: RSV1 without the extension, on a continuation frame
//     or on a ping closes with 1002; compressed frames from the client are
//     inflated and the echo comes back with RSV1 set.
//   - Limits (RFC 6455 §7.4.1, RFC 7692 §8.1): a message, or the sum of its
//     fragments, over the read limit closes with 1009, as does 10 MiB of
//     zeros deflated into a few KiB (inflation stops at the limit); corrupt
//     deflate data closes with 1007.
//   - Autobahn sections 12 and 13 (compression), in our own form: each of
//     the offers 13.1 (default), 13.2 (client_no_context_takeover), 13.3
//     and 13.4 (client_max_window_bits=8 and 15), 13.5 and 13.6 (both
//     together), 13.7 (several offers; the first is taken), and
//     server_max_window_bits=9 and server_no_context_takeover, with text and
//     binary messages of 16 B, 64 B, 256 B, 1, 4, 16, 64 and 128 KiB,
//     compressed by the raw client under the agreed parameters and
//     fragmented at 16 KiB (RSV1 on the first frame only); every echo is
//     inflated and compared, and no back-reference in it reaches past the
//     agreed server window.
//
// Interoperability tests echo 1 000 JSON messages of mixed sizes (16 B to
// 5 KB) per case with the Python websockets and Node ws clients and servers,
// one peer process per direction: window bits 9 to 15 in each direction
// (server 9 with client 15, 10 with 14, ..., 15 with 9), server, client
// and both no context takeover, and for ws a threshold of 1 024 bytes below
// which it sends messages uncompressed; each case checks that both ends
// agree on Sec-WebSocket-Extensions and what it means. Headless Chromium's
// own WebSocket client echoes 1 000 mixed-size messages through Accept,
// over HTTP/1.1 and, over TLS, as an Extended CONNECT on the page's HTTP/2
// connection (TestRFC8441ChromiumWebSocketOverHTTP2).
// These tests run with SQUEEZE_PEERS=1; with SQUEEZE_INTEROP=require they
// run too and a missing peer fails the test rather than skipping it.
//
// See the examples for a complete negotiation and round trip.
package wsdeflate
