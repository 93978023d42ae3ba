package precompressed

import (
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// decodable returns the first of sidecars whose coding this package can
// decode, or nil.
func decodable(sidecars []*variant) *variant {
	for _, v := range sidecars {
		switch v.coding {
		case "gzip", "br", "zstd":
			return v
		}
	}
	return nil
}

// newDecoder returns a reader of the decoded content of r, which holds
// coding. Close releases it.
func newDecoder(coding string, r io.Reader) (io.ReadCloser, error) {
	switch coding {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("precompressed: gzip sidecar: %w", err)
		}
		return zr, nil
	case "br":
		return io.NopCloser(brotli.NewReader(r)), nil
	case "zstd":
		// One goroutine: a sidecar is decoded for one slow client, and the
		// default spawns one per core.
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("precompressed: zstd sidecar: %w", err)
		}
		return zr.IOReadCloser(), nil
	}
	return nil, fmt.Errorf("precompressed: cannot decode coding %q", coding)
}
