// Package deflate holds squeeze's own DEFLATE (RFC 1951) encoders and the
// pieces they share: canonical length-limited Huffman codes, dynamic block
// headers and an LSB-first bit writer.
//
// Encoder streams flushed messages and can reuse one connection's codes
// across them (wsdeflate's level 1). WholeEncoder compresses one small body
// known whole into a single final block (the encoding package's gzip and
// deflate at level 5 for bodies of a few KB). BrotliEncoder codes the same
// kind of matches, with words of brotli's static dictionary, as one brotli
// (RFC 7932) meta-block with the same Huffman builder (the encoding
// package's br at qualities 3 and 4 for bodies of up to 8 KB).
// ZstdEncoder finds matches the same way into one zstd (RFC 8878) block,
// its literals Huffman-coded with the same builder and its sequences
// FSE-coded with the predefined tables or ones built for the body (the
// encoding package's zstd at levels 1-5 for bodies of up to 4 KB).
package deflate
