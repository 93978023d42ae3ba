// Package zstd holds squeeze's own zstd (RFC 8878) encoder for small bodies
// known whole: Encoder writes one single-segment frame of one block. It
// matches with internal/deflate's hash tables, as zstd's double-fast
// strategy does, and Huffman-codes literals with its code builder.
//
// Its files follow the format: frame.go (the frame and block), match.go
// (sequences found in the body), literals.go (the literals section),
// huffman.go (the literal code, its weights and stream), sequences.go (the
// sequences section and its tables), fse.go (FSE tables and their
// description) and bits.go (the backward bit stream).
package zstd
