package wsdeflate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestBombMemoryStaysUnderReadLimit sends permessage-deflate bombs, 16 MiB
// and 128 MiB of zeros in one frame and the larger one in 64 fragments, to
// a server with a 1 MiB read limit that reads with Read and with Reader.
// The server closes with 1009, and the heap's peak growth while it does
// stays under the limit plus a constant (the decoder, its input buffer and
// the payload), the same for either bomb size.
func TestBombMemoryStaysUnderReadLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("deflates 144 MiB")
	}
	const limit = 1 << 20
	payloads := map[int][]byte{}
	for _, size := range []int{16 << 20, 128 << 20} {
		payloads[size], _ = newCompressor(Direction{MaxWindowBits: 15}).Compress(nil, make([]byte, size))
	}
	readers := map[string]func(context.Context, *Conn) error{
		"Read": func(ctx context.Context, c *Conn) error { _, _, err := c.Read(ctx); return err },
		"Reader": func(ctx context.Context, c *Conn) error {
			_, r, err := c.Reader(ctx)
			if err == nil {
				_, err = io.Copy(io.Discard, r)
			}
			return err
		},
	}
	for name, read := range readers {
		for _, tc := range []struct {
			size      int
			fragments int
		}{{16 << 20, 1}, {128 << 20, 1}, {128 << 20, 64}} {
			ended := make(chan error, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c, err := Accept(w, r, &AcceptOptions{ReadLimit: limit})
				if err != nil {
					return
				}
				ended <- read(context.Background(), c)
			}))
			rc := dialRaw(t, "ws"+strings.TrimPrefix(srv.URL, "http"), ExtensionName)
			frames := fragment(payloads[tc.size], tc.fragments)
			s := soak.StartSampler(time.Millisecond)
			rc.send(frames...)
			rc.expectClose(StatusMessageTooBig)
			err := <-ended
			peak := s.Stop()
			rc.nc.Close()
			srv.Close()
			if CloseStatus(err) != StatusMessageTooBig && !strings.Contains(err.Error(), "1009") {
				t.Errorf("%s, %d MiB bomb: server read returned %v, want a 1009 failure", name, tc.size>>20, err)
			}
			// The payload itself (up to 270 KiB here) arrives into the read
			// buffer; the decoder and the message buffer are bounded by the
			// limit. 4 MiB covers both with the test's own frames.
			if bound := uint64(limit + 4<<20); peak.HeapInuse > bound {
				t.Errorf("%s, %d MiB bomb in %d fragments: heap grew by %d bytes, over the limit plus 4 MiB", name, tc.size>>20, tc.fragments, peak.HeapInuse)
			}
			t.Logf("%-6s %3d MiB of zeros in %6d B, %2d fragment(s): 1009; peak heap +%.2f MiB, allocated %.2f MiB (limit 1 MiB)",
				name, tc.size>>20, len(payloads[tc.size]), tc.fragments, float64(peak.HeapInuse)/(1<<20), float64(peak.TotalAlloc)/(1<<20))
		}
	}
}

// fragment splits one compressed message into n frames, RSV1 on the first
// only (RFC 7692 §6).
func fragment(payload []byte, n int) []frame {
	var frames []frame
	step := (len(payload) + n - 1) / n
	for i := 0; i < len(payload); i += step {
		op, rsv1 := opContinuation, false
		if i == 0 {
			op, rsv1 = opBinary, true
		}
		end := min(i+step, len(payload))
		frames = append(frames, frame{h: header{op: op, rsv1: rsv1, fin: end == len(payload)}, payload: payload[i:end]})
	}
	return frames
}
