package precompressed

import (
	"context"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	ownzstd "github.com/squeezehttp/squeeze/internal/zstd"
)

// Sidecars are made once and served many times, so each coding runs at its
// highest setting, within the windows that every client must accept.
const (
	// RFC 9659 §3: a zstd content coding must not need a window above 8 MB.
	sidecarZstdWindow = 8 << 20
	// RFC 7932 §9.1: lgwin 24 is the largest brotli window, 16 MB less 16
	// bytes; a file gets the smallest window that holds it, so that a
	// client decoding a 40 KB script needs no 16 MB buffer for it.
	sidecarBrotliMaxWindow = 24
	sidecarBrotliMinWindow = 10
)

// generatable reports whether Generate can write sidecars in coding.
func generatable(coding string) bool {
	switch coding {
	case "zstd", "br", "gzip":
		return true
	}
	return false
}

// sidecarEncoder compresses originals for one worker, keeping the encoders
// that are worth reusing between files.
type sidecarEncoder struct {
	best *ownzstd.BestEncoder
	body []byte // the original the best encoder reads whole, and its frame
	zstd *zstd.Encoder
	gzip *gzip.Writer
}

// encode writes src, of size bytes, to dst compressed in coding. It checks
// ctx between 64 KB chunks of input (blocks of 128 KiB for zstd files up to
// 8 MiB), so that a cancelled run stops within the block the encoder is
// working on rather than after the whole file: brotli quality 11 works in
// the largest blocks of input, the longest wait, the others in smaller
// ones.
func (e *sidecarEncoder) encode(ctx context.Context, dst io.Writer, src io.Reader, size int64, coding string) error {
	var zw io.WriteCloser
	switch coding {
	case "zstd":
		if size <= ownzstd.MaxBestBody {
			return e.encodeBestZstd(ctx, dst, src, size)
		}
		// Larger files stream through klauspost's best level, in an
		// 8 MB window: the own encoder holds the whole file.
		if e.zstd == nil {
			// One goroutine per encoder: Generate already runs one
			// worker per core, and a single-threaded encoder makes the
			// same bytes on every machine.
			enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
				zstd.WithWindowSize(sidecarZstdWindow), zstd.WithEncoderConcurrency(1))
			if err != nil {
				return fmt.Errorf("precompressed: zstd encoder: %w", err)
			}
			e.zstd = enc
		}
		// The content size in the frame header lets a decoder allocate
		// once, and lets a file under 8 MB be a single segment, whose
		// window is just the file (RFC 8878 §3.1.1.1.2).
		e.zstd.ResetContentSize(dst, size)
		zw = e.zstd
	case "br":
		zw = brotli.NewWriterOptions(dst, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: brotliWindow(size)})
	case "gzip":
		if e.gzip == nil {
			gw, err := gzip.NewWriterLevel(dst, gzip.BestCompression)
			if err != nil {
				return fmt.Errorf("precompressed: gzip encoder: %w", err)
			}
			e.gzip = gw
		}
		// No name and MTIME 0, "no time stamp" (RFC 1952 §2.3.1), in the
		// header: the same original always makes the same sidecar, so
		// builds are reproducible. klauspost sends the zero time.Time as a
		// date in 2042, so ModTime is set to the Unix epoch, which it sends
		// as 0.
		e.gzip.Reset(dst)
		e.gzip.ModTime = time.Unix(0, 0)
		zw = e.gzip
	default:
		return fmt.Errorf("precompressed: cannot generate coding %q", coding)
	}
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			zw.Close()
			return err
		}
		n, rerr := src.Read(buf)
		if n > 0 {
			if _, err := zw.Write(buf[:n]); err != nil {
				zw.Close()
				return fmt.Errorf("precompressed: %s: %w", coding, err)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			zw.Close()
			return fmt.Errorf("precompressed: reading original: %w", rerr)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("precompressed: %s: %w", coding, err)
	}
	return nil
}

// encodeBestZstd writes src, an original of size bytes, at most
// ownzstd.MaxBestBody, to dst as the own best encoder's zstd frame:
// optimal parsing, as the C zstd's highest levels do, keeps sidecars
// within 1 % of `zstd -19`'s, which klauspost's best level does not
// (TestZstdSidecarsDecodeWithCZstdWithinOnePercentOfIt). The frame is
// single-segment, its window the file (RFC 8878 §3.1.1.1.2). The encoder
// checks ctx between blocks of 128 KiB.
func (e *sidecarEncoder) encodeBestZstd(ctx context.Context, dst io.Writer, src io.Reader, size int64) error {
	// One byte more than the encoder takes tells an original that grew
	// since its size was read.
	body, err := readAtMost(slices.Grow(e.body[:0], int(size)+1), src, ownzstd.MaxBestBody+1)
	if err != nil {
		return fmt.Errorf("precompressed: reading original: %w", err)
	}
	if len(body) > ownzstd.MaxBestBody {
		return fmt.Errorf("precompressed: zstd: original grew past %d bytes while read", ownzstd.MaxBestBody)
	}
	if e.best == nil {
		e.best = new(ownzstd.BestEncoder)
	}
	// The frame goes after the body, in the same buffer, kept for the
	// next file.
	frame, err := e.best.Append(body, body, ctx.Err)
	e.body = frame[:0]
	if err != nil {
		return err
	}
	if _, err := dst.Write(frame[len(body):]); err != nil {
		return fmt.Errorf("precompressed: zstd: %w", err)
	}
	return nil
}

// readAtMost appends to buf what src holds, up to n bytes.
func readAtMost(buf []byte, src io.Reader, n int) ([]byte, error) {
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := src.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// brotliWindow is the log2 window for a file of n bytes: the smallest that
// holds it (2^lgwin - 16 bytes, RFC 7932 §9.1), within the format's range.
func brotliWindow(n int64) int {
	return min(max(bits.Len64(uint64(n+15)), sidecarBrotliMinWindow), sidecarBrotliMaxWindow)
}
