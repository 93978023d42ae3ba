package encoding

import (
	"fmt"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// Adversarial bodies (all one byte, incompressible, two bytes alternating,
// 64 KiB of one 3-byte pattern, and the encoders' other shapes) decode to
// themselves through every built-in codec at every level, as shipped and
// with LibraryEncoders, cut at 1 and 4 KiB (where the own encoders serve)
// and at up to 64 KiB; and through each own encoder directly at every
// size, whether it serves it or not.
func TestAdversarialShapesThroughEveryLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("every shape at every level; runs without -short")
	}
	t.Parallel()
	shapes := enctest.Shapes()
	for _, c := range []Codec{Gzip(), Deflate(), Zstd(), Brotli()} {
		for _, codec := range []Codec{c, LibraryEncoders(c)} {
			lo, hi, _ := codec.Levels()
			for level := lo; level <= hi; level++ {
				for name, shape := range shapes {
					for _, n := range []int{1 << 10, 4 << 10, 64 << 10} {
						body := shape[:min(n, len(shape))]
						if level >= 10 && n > 4<<10 && c.Name() == "br" {
							body = body[:min(len(body), 16<<10)] // qualities 10 and 11 are slow
						}
						out, err := codec.(AppendEncoder).AppendEncode(nil, body, level)
						if err != nil {
							t.Fatal(err)
						}
						checkDecodes(t, fmt.Sprintf("%s level %d, %s[:%d]", c.Name(), level, name, len(body)), c.Name(), out, body)
					}
				}
			}
		}
	}
	for _, coding := range []string{"gzip", "zstd", "br"} {
		for _, level := range ownCandidateLevels(coding) {
			for name, shape := range shapes {
				body := shape[:min(len(shape), 128<<10)] // the own zstd encoder's largest body
				checkDecodes(t, fmt.Sprintf("own %s level %d, %s", coding, level, name), coding, ownEncodeFor(coding, body, level), body)
			}
		}
	}
}
