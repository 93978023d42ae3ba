// Package precompressed serves static files together with their
// precompressed sidecars: for a request for app.js it picks, by the
// request's Accept-Encoding (RFC 9110 §12.5.3), among app.js.zst, app.js.br,
// app.js.gz and app.js itself, whichever exist. Among the codings the
// client weighs equally it sends the smallest sidecar (Config.PreferOrder
// gives ties to the order of Config.Sidecars instead).
//
// What it gets right that static servers commonly do not:
//
//   - Each variant has its own strong ETag, a hash of the bytes sent tagged
//     with the coding, so equal-size sidecars never share a validator
//     (RFC 9110 §8.8.3.3); Last-Modified is that of the file sent.
//   - Vary: Accept-Encoding is on every response of a negotiated resource,
//     identity responses and 304s included (RFC 9110 §12.5.5).
//   - Range, If-Range, If-Match, If-None-Match, If-Modified-Since and HEAD
//     work as http.ServeContent does them, on the encoded bytes.
//   - A sidecar older than its original (to the second, as the C tools
//     copy times) is ignored; a sidecar whose original is missing is
//     decoded for clients that do not accept it, once, into the same
//     bounded cache.
//   - Files without a sidecar whose type is worth compressing are
//     compressed once and kept in a bounded in-memory cache, so no request
//     pays for compressing a static file again; the bytes it holds go out
//     with one write, as http.ServeContent would send them from a file.
//     The cache is an encoding.Cache, keyed by the file's content, which
//     Config.Cache can share with the encoding middleware. A file sent
//     from it a few times is recompressed in the background at the best
//     level of each coding clients ask for, and then sent smallest-first
//     (Config.FallbackRecompressAfter).
//   - Stat results are cached, found and not found, so that a request costs
//     no more file-system calls than http.FileServer serving the plain file,
//     within a budget in bytes that counts the names requested
//     (Config.StatCacheBytes).
//   - Small files are held in memory with the header values of their
//     responses, checked by the same stat results (Config.FileCacheBytes);
//     larger ones are opened for each response and sent with sendfile.
//
// Use FileServerRoot for an operating-system directory: it confines the tree
// with os.Root, so that neither ".." nor a symbolic link leads out of it.
//
// Config.Dictionary adds Compression Dictionary Transport (RFC 9842): a
// versioned asset such as app.3f2a1b9c.js is marked with Use-As-Dictionary
// for the builds after it (VersionedMatch), and a client that holds it as a
// dictionary gets the next build as its delta sidecar,
// app.<new>.js.<SHA-256 of the old build>.dcz, with Content-Encoding: dcz.
// Deltas are made ahead of time, by GenerateDelta or by Generate with
// GenerateConfig.Deltas, never on request. As the RFC requires, they go
// only over a secure context (TLS, or localhost for development, §8), only
// when dcz is accepted by name, and only to requests that may read the
// response: same-origin, or cross-origin with CORS allowing it (§9.3.3).
// Deltas are for public static assets, which hold no secret a dictionary
// could help a page probe (§9.2); dictionary compression of responses
// that may carry secrets is encoding's Config.Dictionaries, off for them
// unless the dictionary package's Config.Allow opts them in.
//
// Generate writes the sidecars (zstd, brotli and gzip at their best levels)
// and, optionally, a Manifest of hashes that lets FileServer verify them and
// take ETags from it; the command precompressed/cmd/precompress runs it from
// a build or a go:generate line. See the examples in example_test.go.
package precompressed
