// Package encoding compresses HTTP responses on the fly: an http.Handler
// wrapper that negotiates the content coding (zstd, br, gzip or deflate)
// with each client and streams or one-shots the body through pooled
// encoders.
//
//	http.ListenAndServe(addr, encoding.Handler(mux))
//
// The decision to compress is taken late, when the handler's first body
// bytes, its Flush or its return show what it is sending, and it follows the
// HTTP rules: Vary: Accept-Encoding on every response whose coding depended
// on the request (RFC 9110 §12.5.5), a strong ETag made to differ per coding
// (§8.8.3.3), a HEAD's header that of its GET (§9.3.2), no compression of
// 1xx, 204, 206 and 304 responses, already encoded bodies, Content-Range,
// Cache-Control: no-transform or types that do not compress. Bodies that end
// within Config.BufferSize are compressed in one shot and sent with a
// Content-Length; longer ones stream. Flush reaches the client through the
// encoder (server-sent events stream), and a response that flushes before
// it outgrows the buffer streams through a small encoder of squeeze's own
// that gives its live state back while the stream waits (Streamer,
// Config.IdleRelease), so that thousands of open event streams cost tens of
// KiB each, not megabytes. Hijack works while nothing is
// compressed, an HTTP/2 connection's http.Pusher stays one, and Unwrap lets
// http.ResponseController reach the connection. Upgrade requests (WebSocket) are passed through untouched.
// Declared trailers stay trailers: a body that has them goes out chunked
// over HTTP/1.1, and their values never join the header section. For each
// response sent uncompressed, Stats.Skip tells Config.OnResponse which of
// these rules applied, or that the client accepts nothing better than
// identity, or that the handler called Bypass.
//
// Conditional requests work for every kind of handler. A strong ETag
// "v1" goes out as "v1-br" on a br response, and the handler sees
// If-None-Match with that suffix taken off the tags of the response's
// coding: a handler testing r.Header.Get("If-None-Match") == `"v1"` finds
// its own tag and answers 304, which then carries "v1-br" again; a tag of
// another coding is left as it is, since it names another representation.
// The client's own If-None-Match lines follow that one, so a handler that
// tags per coding itself (precompressed) finds its tag too.
// Then, before any byte of a 200 to GET or HEAD is sent, the middleware
// evaluates If-None-Match (weak comparison, §13.1.2) or, without it,
// If-Modified-Since (§13.1.3) against the response's final ETag and
// Last-Modified, as nginx's not-modified filter does, and answers 304 with
// the ETag, Vary, Cache-Control and other fields §15.4.5 lists, dropping
// the body: a handler that sets validators and never looks at conditional
// requests revalidates, and so does one that tags its variants per coding
// itself (precompressed's "sum-br", which it sees as "sum"). If-Match on GET
// and HEAD does not reach the handler: the middleware compares it with the
// tag of the bytes a 2xx sends (strong comparison, §13.1.1) and answers 412
// when it fails, so a range of identity bytes never goes to a client naming
// a compressed tag, nor the other way round. If-Range reaches the handler
// untouched. Config.DisableConditional leaves all of it to the handler;
// Stats.Conditional reports the responses the middleware answered.
//
// Compression Dictionary Transport (RFC 9842) is opt-in through
// Config.Dictionaries: the encoding/dictionary package holds the
// dictionaries, the headers, the dcz and dcb framing and the rules of when
// a dictionary may be used, and its Server plugs into the middleware, which
// then answers dcz to a client naming a dictionary the server has, with
// Vary: Accept-Encoding, Available-Dictionary and a strong ETag per
// dictionary.
//
// A body that handlers send again and again (a rendered page, an embedded
// bundle, the same JSON to many clients) is served from memory, after at
// most two compressions, with Config.Cache: a Cache made by NewCache keeps
// compressed bodies by the SHA-256 of their content within a byte budget,
// sends the stored bytes on a hit, and can be shared with precompressed's
// file servers.
//
// Codings are pluggable through the Codec interface; Zstd, Brotli, Gzip and
// Deflate are built in, encoding with github.com/klauspost/compress and
// github.com/andybalholm/brotli at the level asked for, and small bodies
// with squeeze's own encoders where those keep the level's promise (see
// Coding.Level) in less time; LibraryEncoders sends every body to the
// library. What a codec can do
// beyond streaming it says by implementing optional interfaces, found by
// type assertion as io.WriterTo is: AppendEncoder (one-shot bodies),
// Streamer (flushed streams, whose Writers implement Releaser), Padder and
// AppendPadder (the length-hiding padding of Config.Jitter); the
// middleware uses them the same way for built-in and user codecs.
// New builds a Middleware from a Config whose
// zero value is the recommended setup.
package encoding
