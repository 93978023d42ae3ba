// Package precompressed serves static files together with their
// precompressed sidecars: for a request for app.js it picks, by the
// request's Accept-Encoding (RFC 9110 §12.5.3), among app.js.zst, app.js.br,
// app.js.gz and app.js itself, whichever exist.
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
//   - A sidecar older than its original is ignored; a sidecar whose original
//     is missing is decoded for clients that do not accept it, once, into
//     the same bounded cache.
//   - Files without a sidecar whose type is worth compressing are
//     compressed once and kept in a bounded in-memory cache, so no request
//     pays for compressing a static file again.
//   - Stat results are cached, found and not found, so that a request costs
//     no more file-system calls than http.FileServer serving the plain file.
//
// Use FileServerRoot for an operating-system directory: it confines the tree
// with os.Root, so that neither ".." nor a symbolic link leads out of it.
//
// Generate writes the sidecars (zstd, brotli and gzip at their best levels)
// and, optionally, a Manifest of hashes that lets FileServer verify them and
// take ETags from it; the command precompressed/cmd/precompress runs it from
// a build or a go:generate line. See the examples in example_test.go.
package precompressed
