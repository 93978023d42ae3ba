package wsdeflate

import (
	"fmt"
	"math"
	"time"
)

// DefaultCompressionThreshold is the smallest message Write compresses
// unless the options say otherwise (coder/websocket's default with context
// takeover): below it a deflate block's header and the Huffman tables cost
// about what matching saves, and klauspost's encoder (levels above 1)
// stores such messages without looking for matches.
const DefaultCompressionThreshold = 128

// connOptions are the fields AcceptOptions and DialOptions share.
type connOptions struct {
	compression Config
	readLimit   int64
	idleRelease time.Duration
	level       int
	threshold   int
}

// checkOptions gathers the fields AcceptOptions and DialOptions share and
// checks them.
func checkOptions(kind string, compression Config, readLimit int64, idleRelease time.Duration, level, threshold int) (connOptions, error) {
	o := connOptions{compression, readLimit, idleRelease, level, threshold}
	return o, o.check(kind)
}

// check refuses values the connection cannot honour, naming the field, so
// that a misconfiguration fails Accept or Dial instead of surfacing as odd
// behaviour later; it fills in the defaults of zero values.
func (o *connOptions) check(kind string) error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("wsdeflate: %s.%s is %v; want %s", kind, field, v, want)
	}
	switch {
	case o.level != 0 && (o.level < 1 || o.level > 9):
		return bad("CompressionLevel", o.level, "0 (DefaultLevel) or 1..9")
	case o.threshold < 0:
		return bad("CompressionThreshold", o.threshold, "0 (the default) or a positive size")
	case !validWindowBits(o.compression.ServerMaxWindowBits):
		return bad("Compression.ServerMaxWindowBits", o.compression.ServerMaxWindowBits, "0 (15) or 8..15")
	case !validWindowBits(o.compression.ClientMaxWindowBits):
		return bad("Compression.ClientMaxWindowBits", o.compression.ClientMaxWindowBits, "0 (15) or 8..15")
	}
	o.readLimit = readLimitOrDefault(o.readLimit)
	if o.level == 0 {
		o.level = DefaultLevel
	}
	if o.threshold == 0 {
		o.threshold = DefaultCompressionThreshold
	}
	return nil
}

// readLimitOrDefault maps a read limit as callers give it to the one
// enforced: 0 means DefaultReadLimit, and a negative value no limit, as
// coder/websocket's SetReadLimit(-1) does.
func readLimitOrDefault(n int64) int64 {
	switch {
	case n == 0:
		return DefaultReadLimit
	case n < 0:
		return math.MaxInt64
	}
	return n
}

// validWindowBits reports whether bits is a Config window size: 0 for the
// default or RFC 7692 §7.1.2's 8..15.
func validWindowBits(bits int) bool {
	return bits == 0 || bits >= 8 && bits <= 15
}

// maxIntValue is the largest int, as an int64.
const maxIntValue = int64(^uint(0) >> 1)

// intLimit converts a read limit to the int a Decompressor counts in. A
// limit beyond what an int holds (math.MaxInt64 on a 32-bit platform) is
// more than one message can be in memory anyway; one below MaxInt leaves
// room for the single byte past the limit that detects an excess.
func intLimit(n int64) int {
	return int(min(n, maxIntValue-1))
}

// addSize adds two non-negative sizes, saturating at math.MaxInt64 instead
// of wrapping negative.
func addSize(a, b int64) int64 {
	if a > 1<<63-1-b {
		return 1<<63 - 1
	}
	return a + b
}
