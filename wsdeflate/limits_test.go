package wsdeflate

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestReadLimitOfMaxInt64AcceptsMessages: math.MaxInt64 means "no practical
// limit". Messages of every size pass through Read and Reader, compressed
// or not, in both directions, instead of failing with 1009 (the limit plus
// the compressed slack overflowed) or panicking in Reader (limit + 1 did).
// A negative limit means the same, as coder/websocket's SetReadLimit(-1).
func TestReadLimitOfMaxInt64AcceptsMessages(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limit   int64
		disable bool
	}{
		{"compressed", math.MaxInt64, false},
		{"uncompressed", math.MaxInt64, true},
		{"compressed, -1", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			goroutinesReturn(t)
			url, _ := echoServer(t, &AcceptOptions{ReadLimit: tc.limit, Compression: Config{Disabled: tc.disable}})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, _, err := Dial(ctx, url, &DialOptions{ReadLimit: tc.limit})
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			c.SetReadLimit(tc.limit)
			for i, size := range []int{0, 100, 1600, 70 << 10, 1 << 20} {
				msg := jsonMessage(uint64(i), size)
				if err := c.Write(ctx, MessageText, msg); err != nil {
					t.Fatalf("Write of %d bytes: %v", size, err)
				}
				if _, got, err := c.Read(ctx); err != nil || !bytes.Equal(got, msg) {
					t.Fatalf("Read of a %d-byte echo: %d bytes, %v", size, len(got), err)
				}
				if err := c.Write(ctx, MessageText, msg); err != nil {
					t.Fatalf("Write of %d bytes: %v", size, err)
				}
				_, r, err := c.Reader(ctx)
				if err != nil {
					t.Fatalf("Reader: %v", err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, msg) {
					t.Fatalf("Reader of a %d-byte echo: %d bytes, %v", size, len(got), err)
				}
			}
			c.Close(StatusNormalClosure, "")
		})
	}
}

// TestDecompressorWithMaxIntLimit: NewDecompressor(d, math.MaxInt) takes
// the largest limit an int holds without overflowing it.
func TestDecompressorWithMaxIntLimit(t *testing.T) {
	msg := jsonMessage(3, 5000)
	for _, dir := range []Direction{takeover(), noTakeover()} {
		payload, _ := newCompressor(dir).Compress(nil, msg)
		d := NewDecompressor(dir, math.MaxInt)
		if got, err := d.Decompress([]byte("prefix"), payload); err != nil || string(got) != "prefix"+string(msg) {
			t.Fatalf("Decompress with a MaxInt limit: %d bytes, %v", len(got), err)
		}
		d = NewDecompressor(dir, math.MaxInt)
		if got, err := io.ReadAll(d.Reader(bytes.NewReader(payload))); err != nil || !bytes.Equal(got, msg) {
			t.Fatalf("Reader with a MaxInt limit: %d bytes, %v", len(got), err)
		}
	}
}

// TestDecompressorLimitMeansWhatReadLimitMeans: NewDecompressor's limit
// reads as a Conn's ReadLimit does, so the codec and the connection share
// one default: 0 is DefaultReadLimit (a message of exactly that size
// inflates, one byte more fails with ErrMessageTooBig) and a negative value
// is no limit (twice the default inflates).
func TestDecompressorLimitMeansWhatReadLimitMeans(t *testing.T) {
	zeros := func(n int) []byte {
		out, _ := newCompressor(noTakeover()).Compress(nil, make([]byte, n))
		return out
	}
	for _, tc := range []struct {
		limit, size int
		tooBig      bool
	}{
		{0, DefaultReadLimit, false},
		{0, DefaultReadLimit + 1, true},
		{-1, 2 * DefaultReadLimit, false},
	} {
		got, err := NewDecompressor(noTakeover(), tc.limit).Decompress(nil, zeros(tc.size))
		switch {
		case tc.tooBig && !errors.Is(err, ErrMessageTooBig):
			t.Errorf("limit %d, %d-byte message: %v, want ErrMessageTooBig", tc.limit, tc.size, err)
		case !tc.tooBig && (err != nil || len(got) != tc.size):
			t.Errorf("limit %d, %d-byte message: %d bytes, %v", tc.limit, tc.size, len(got), err)
		}
	}
}

// TestFrameLengthsCannotOverflowTheReadLimit: a peer controls every frame's
// length (RFC 6455 §5.2: up to 2^63-1). A continuation announcing 2^63-1
// after a 10-byte fragment must fail the connection with 1009, not wrap the
// sum negative and allocate; with no limit (math.MaxInt64) a frame
// announcing 2^63-1 must wait for bytes, not panic, and fail cleanly when
// the peer goes.
func TestFrameLengthsCannotOverflowTheReadLimit(t *testing.T) {
	huge := header{op: opContinuation, fin: true, masked: true, length: math.MaxInt64}
	t.Run("continuation past the limit", func(t *testing.T) {
		goroutinesReturn(t)
		url, _ := echoServer(t, nil)
		rc := dialRaw(t, url, "")
		rc.send(data(opBinary, false, "0123456789"))
		rc.nc.Write(appendHeader(nil, huge))
		rc.expectClose(StatusMessageTooBig)
	})
	t.Run("no limit", func(t *testing.T) {
		goroutinesReturn(t)
		done := make(chan error, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := Accept(w, r, &AcceptOptions{ReadLimit: math.MaxInt64})
			if err != nil {
				done <- err
				return
			}
			_, _, err = c.Read(context.Background())
			done <- err
		}))
		defer srv.Close()
		rc := dialRaw(t, "ws"+strings.TrimPrefix(srv.URL, "http"), "")
		first := huge
		first.op, first.length = opBinary, math.MaxInt64
		rc.nc.Write(append(appendHeader(nil, first), "some bytes"...))
		rc.nc.Close()
		select {
		case err := <-done:
			if err == nil {
				t.Fatal("Read returned a message the peer never finished")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Read did not return within 10s of the peer leaving (did it panic?)")
		}
	})
}

// goroutinesReturn fails t unless the goroutine count is back to what it
// was when goroutinesReturn was called within five seconds of t's end,
// after the cleanups registered later (servers closing) have run.
func goroutinesReturn(t *testing.T) {
	t.Helper()
	base := runtime.NumGoroutine()
	t.Cleanup(func() {
		if n := soak.SettleGoroutines(base, 5*time.Second); n > base {
			t.Errorf("goroutines: %d before the test, %d five seconds after it\n%s", base, n, soak.Stacks())
		}
	})
}

// badOptions are option values the package cannot honour; each must be
// refused by Accept and Dial with an error naming the field.
var badOptions = []struct {
	field                 string
	readLimit             int64
	level, threshold      int
	serverBits, clientBit int
}{
	{field: "CompressionLevel", level: 10},
	{field: "CompressionLevel", level: -1},
	{field: "CompressionThreshold", threshold: -1},
	{field: "ServerMaxWindowBits", serverBits: 16},
	{field: "ServerMaxWindowBits", serverBits: 7},
	{field: "ClientMaxWindowBits", clientBit: 16},
	{field: "ClientMaxWindowBits", clientBit: -3},
}

func TestAcceptRefusesOptionsItCannotHonour(t *testing.T) {
	for _, tc := range badOptions {
		opts := &AcceptOptions{
			ReadLimit: tc.readLimit, CompressionLevel: tc.level, CompressionThreshold: tc.threshold,
			Compression: Config{ServerMaxWindowBits: tc.serverBits, ClientMaxWindowBits: tc.clientBit},
		}
		w := httptest.NewRecorder()
		_, err := Accept(w, upgradeRequest(), opts)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("Accept with a bad %s: error %v, want one naming %s", tc.field, err, tc.field)
			continue
		}
		if w.Code != http.StatusInternalServerError {
			t.Errorf("Accept with a bad %s answered %d, want 500", tc.field, w.Code)
		}
	}
}

func TestDialRefusesOptionsItCannotHonour(t *testing.T) {
	for _, tc := range badOptions {
		opts := &DialOptions{
			ReadLimit: tc.readLimit, CompressionLevel: tc.level, CompressionThreshold: tc.threshold,
			Compression: Config{ServerMaxWindowBits: tc.serverBits, ClientMaxWindowBits: tc.clientBit},
			NetDial: func(context.Context, string, string) (net.Conn, error) {
				return nil, errors.New("dialled despite invalid options")
			},
		}
		if _, _, err := Dial(context.Background(), "ws://127.0.0.1:1/", opts); err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("Dial with a bad %s: error %v, want one naming %s", tc.field, err, tc.field)
		}
	}
}
