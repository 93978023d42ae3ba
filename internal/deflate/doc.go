// Package deflate holds squeeze's own DEFLATE (RFC 1951) encoders and the
// pieces they share: canonical length-limited Huffman codes, dynamic block
// headers and an LSB-first bit writer.
//
// Encoder streams flushed messages and can reuse one connection's codes
// across them (wsdeflate's level 1). WholeEncoder compresses one small body
// known whole into a single final block. BrotliEncoder codes the same kind
// of matches, with words of brotli's static dictionary, as one brotli
// (RFC 7932) meta-block with the same Huffman builder. ZstdEncoder finds
// matches the same way into one zstd (RFC 8878) block, its literals
// Huffman-coded with the same builder and its sequences FSE-coded with the
// predefined tables or ones built for the body. The encoding package uses
// the last three only when asked to (its OwnSmallBodyEncoders): gzip and
// deflate at level 5 up to 4 KiB, zstd at levels 1 and 2 up to 4 KiB, br
// at quality 3 up to 8 KiB.
//
// The build tags purego and nounsafe each replace the unchecked loads of
// the hot loops with ordinary, bounds-checked ones.
package deflate
