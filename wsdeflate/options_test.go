package wsdeflate

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestCompressionThresholdDecidesWhatIsCompressed: a server with
// CompressionThreshold 2000 sends a 1 000-byte message uncompressed and a
// 3 000-byte one compressed (RFC 7692 §6: RSV1 marks which); the zero value
// keeps the 128-byte default, so a 200-byte message is compressed.
func TestCompressionThresholdDecidesWhatIsCompressed(t *testing.T) {
	goroutinesReturn(t)
	for _, tc := range []struct {
		threshold, size int
		rsv1            bool
	}{
		{2000, 1000, false},
		{2000, 3000, true},
		{0, DefaultCompressionThreshold - 1, false},
		{0, 200, true},
		{1, 1, true},
	} {
		url, _ := echoServer(t, &AcceptOptions{CompressionThreshold: tc.threshold})
		rc := dialRaw(t, url, ExtensionName)
		rc.send(data(opBinary, true, strings.Repeat("a", tc.size)))
		if h, _ := rc.next(); h.rsv1 != tc.rsv1 {
			t.Errorf("threshold %d, %d-byte message: RSV1 %t, want %t", tc.threshold, tc.size, h.rsv1, tc.rsv1)
		}
	}
}

// TestCompressionLevelReachesTheCompressor: each end compresses at the
// level its options ask for, and messages still round-trip.
func TestCompressionLevelReachesTheCompressor(t *testing.T) {
	goroutinesReturn(t)
	for _, level := range []int{0, 1, 6, 9} {
		servers := make(chan *Conn, 1)
		url, _ := wsServer(t, &AcceptOptions{CompressionLevel: level}, func(ctx context.Context, c *Conn) error {
			select {
			case servers <- c:
			default:
			}
			typ, msg, err := c.Read(ctx)
			if err != nil {
				return err
			}
			return c.Write(ctx, typ, msg)
		})
		ctx := context.Background()
		c, _, err := Dial(ctx, url, &DialOptions{CompressionLevel: level})
		if err != nil {
			t.Fatalf("Dial: %v", err)
		}
		msg := jsonMessage(5, 4000)
		if err := c.Write(ctx, MessageText, msg); err != nil {
			t.Fatalf("Write: %v", err)
		}
		if _, got, err := c.Read(ctx); err != nil || string(got) != string(msg) {
			t.Fatalf("level %d: echo %d bytes, %v", level, len(got), err)
		}
		want := level
		if want == 0 {
			want = DefaultLevel
		}
		if s := <-servers; s.comp.level != want || c.comp.level != want {
			t.Errorf("CompressionLevel %d: server compresses at %d, client at %d; want %d", level, s.comp.level, c.comp.level, want)
		}
		c.Close(StatusNormalClosure, "")
	}
}

// TestNewCompressorTakesTheLevelsTheOptionsTake: NewCompressor is the one
// constructor; its level means what CompressionLevel means (0 is
// DefaultLevel, 1 to 9 are used as given) and a level outside those fails
// it with an error naming the level, never a Compressor that fails later.
func TestNewCompressorTakesTheLevelsTheOptionsTake(t *testing.T) {
	for level := -1; level <= 10; level++ {
		c, err := NewCompressor(takeover(), level)
		switch {
		case level < 0 || level > 9:
			if err == nil || !strings.Contains(err.Error(), strconv.Itoa(level)) {
				t.Errorf("NewCompressor(level %d) = %v, want an error naming the level", level, err)
			}
		case err != nil:
			t.Errorf("NewCompressor(level %d): %v", level, err)
		case level == 0 && c.level != DefaultLevel, level != 0 && c.level != level:
			t.Errorf("NewCompressor(level %d) compresses at %d", level, c.level)
		}
	}
}
