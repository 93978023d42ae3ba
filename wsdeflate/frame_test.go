package wsdeflate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestHeaderRoundTripsEveryLengthForm(t *testing.T) {
	for _, tc := range []struct {
		length  int64
		wireLen int // header bytes without a mask
	}{
		{0, 2}, {125, 2}, {126, 4}, {65535, 4}, {65536, 10}, {1 << 40, 10},
	} {
		for _, masked := range []bool{false, true} {
			h := header{fin: true, rsv1: true, op: opBinary, masked: masked, key: [4]byte{1, 2, 3, 4}, length: tc.length}
			b := appendHeader(nil, h)
			want := tc.wireLen
			if masked {
				want += 4
			}
			if len(b) != want {
				t.Errorf("length %d masked %t: header of %d bytes, want %d (RFC 6455 §5.2 minimal form)", tc.length, masked, len(b), want)
			}
			var buf [maxHeaderSize]byte
			got, err := readHeader(bytes.NewReader(b), &buf)
			if err != nil {
				t.Fatalf("length %d masked %t: readHeader: %v", tc.length, masked, err)
			}
			if !masked {
				h.key = [4]byte{}
			}
			if got != h {
				t.Errorf("length %d masked %t: read %+v, wrote %+v", tc.length, masked, got, h)
			}
		}
	}
}

func TestReadHeaderRejectsMalformedHeaders(t *testing.T) {
	for _, tc := range []struct {
		name string
		wire []byte
	}{
		{"16-bit form for 125", []byte{0x82, 126, 0, 125}},
		{"64-bit form for 65535", []byte{0x82, 127, 0, 0, 0, 0, 0, 0, 0xff, 0xff}},
		{"64-bit length with the top bit set", []byte{0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0}},
		{"close of 126 bytes", []byte{0x88, 126, 0, 126}},
		{"unfinished pong", []byte{0x0A, 0}},
		{"opcode 0x7", []byte{0x87, 0}},
		{"opcode 0xF", []byte{0x8F, 0}},
		{"RSV2", []byte{0xA1, 0}},
		{"RSV3", []byte{0x91, 0}},
	} {
		var buf [maxHeaderSize]byte
		_, err := readHeader(bytes.NewReader(tc.wire), &buf)
		var fe errFrame
		if !errors.As(err, &fe) {
			t.Errorf("%s: readHeader error %v, want a frame error", tc.name, err)
		}
	}
}

func TestReadHeaderReportsTruncationAsUnexpectedEOF(t *testing.T) {
	var buf [maxHeaderSize]byte
	if _, err := readHeader(bytes.NewReader(nil), &buf); err != io.EOF {
		t.Errorf("empty input: %v, want io.EOF (a clean end between frames)", err)
	}
	if _, err := readHeader(bytes.NewReader([]byte{0x82, 0xFE, 1}), &buf); err != io.ErrUnexpectedEOF {
		t.Errorf("truncated header: %v, want io.ErrUnexpectedEOF", err)
	}
}

func TestMaskMatchesBytewiseXORAtEveryOffset(t *testing.T) {
	key := [4]byte{0xde, 0xad, 0xbe, 0xef}
	for n := range 40 {
		for pos := range 4 {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(i * 31)
			}
			got := bytes.Clone(src)
			next := mask(key, pos, got)
			for i := range src {
				if want := src[i] ^ key[(pos+i)%4]; got[i] != want {
					t.Fatalf("n=%d pos=%d: byte %d is %#x, want %#x", n, pos, i, got[i], want)
				}
			}
			if next != (pos+n)%4 {
				t.Fatalf("n=%d pos=%d: next position %d, want %d", n, pos, next, (pos+n)%4)
			}
		}
	}
}

// FuzzReadFrame feeds arbitrary bytes to the frame header reader: it must
// never panic, and a header it accepts must be written back byte for byte
// by appendHeader (only minimal length forms are accepted).
func FuzzReadFrame(f *testing.F) {
	for _, seed := range [][]byte{
		{0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}, // RFC 6455 §5.7 masked "Hello"
		{0x01, 0x03, 'H', 'e', 'l'},
		{0x89, 0x05, 'H', 'e', 'l', 'l', 'o'},
		{0x82, 0x7E, 0x01, 0x00},
		{0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0},
		{0xC1, 0x80, 1, 2, 3, 4},
		{0x88, 0x02, 0x03, 0xE8},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, wire []byte) {
		var buf [maxHeaderSize]byte
		h, err := readHeader(bytes.NewReader(wire), &buf)
		if err != nil {
			return
		}
		out := appendHeader(nil, h)
		if !bytes.Equal(out, wire[:len(out)]) {
			t.Fatalf("header %+v read from % x is written as % x", h, wire[:len(out)], out)
		}
		if h.op.isControl() && (h.length > maxControlPayload || !h.fin) {
			t.Fatalf("accepted an invalid control frame %+v", h)
		}
	})
}

// TestMessageTypeIsItsOpcode_RFC6455_5_2: a message type is the opcode of
// its first frame, and prints as its name in logs.
func TestMessageTypeIsItsOpcode_RFC6455_5_2(t *testing.T) {
	for _, tc := range []struct {
		typ  MessageType
		op   opcode
		name string
	}{{MessageText, opText, "text"}, {MessageBinary, opBinary, "binary"}, {MessageType(9), 9, "MessageType(9)"}} {
		if int(tc.typ) != int(tc.op) || tc.typ.String() != tc.name || fmt.Sprint(tc.typ) != tc.name {
			t.Errorf("MessageType %d: opcode %d, String %q; want %d and %q", int(tc.typ), tc.op, tc.typ.String(), tc.op, tc.name)
		}
	}
}
