// Package deflate holds squeeze's own DEFLATE (RFC 1951) encoders and the
// pieces the other own encoders (internal/zstd, internal/brotli) build on:
// WholeEncoder's hash tables and token stream, canonical length-limited
// Huffman codes (HuffBuilder), the LSB-first bit writers and the unchecked
// loads of the match finders.
//
// Encoder streams flushed messages and can reuse one connection's codes
// across them (wsdeflate's level 1). WholeEncoder compresses one small body
// known whole into a single final block; brotli's encoder codes its tokens
// as one brotli meta-block, and zstd's finds matches in its hash tables the
// same way. The encoding package uses the three for small bodies known
// whole at the levels and sizes where they keep a level's promise (its
// own.go, held to the rule by TestOwnEncoderRule).
//
// The build tags purego and nounsafe each replace the unchecked loads of
// the hot loops with ordinary, bounds-checked ones.
package deflate
