// Package zstd holds squeeze's own zstd (RFC 8878) encoders. Encoder, for
// small bodies known whole, writes one single-segment frame of one block;
// it matches with internal/deflate's hash tables, as zstd's double-fast
// strategy does, and Huffman-codes literals with its code builder.
// StreamEncoder codes a flushed stream block by block. BestEncoder, for
// files compressed once and served many times, spends the time zstd's
// highest levels do: a binary-tree match finder and price-based optimal
// parsing.
//
// Its files follow the format: frame.go (the frame and block), match.go
// (sequences found in the body), literals.go (the literals section),
// huffman.go (the literal code, its weights and stream), sequences.go (the
// sequences section and its tables), fse.go (FSE tables and their
// description), bits.go (the backward bit stream) and xxhash.go (the
// frame's checksum); stream.go is StreamEncoder; best.go is BestEncoder,
// with btree.go (its match finder), optimal.go (its parser) and
// besttables.go (its sequence tables).
package zstd
