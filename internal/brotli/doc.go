// Package brotli holds squeeze's own brotli (RFC 7932) encoder for small
// bodies known whole: Encoder writes one meta-block coded from
// internal/deflate's matches, repeats of recent distances and words of
// brotli's static dictionary.
//
// Its files follow the format: encoder.go (the stream and meta-block
// header), codes.go (insert, copy and distance codes), commands.go (the
// insert-and-copy commands and how they are written), prefix.go (prefix
// codes and their description) and dict.go (the static dictionary's index).
package brotli
