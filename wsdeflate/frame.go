package wsdeflate

import (
	"encoding/binary"
	"fmt"
	"io"
)

// opcode is a frame's opcode (RFC 6455 §5.2, §11.8).
type opcode byte

const (
	opContinuation opcode = 0x0
	opText         opcode = 0x1
	opBinary       opcode = 0x2
	opClose        opcode = 0x8
	opPing         opcode = 0x9
	opPong         opcode = 0xA
)

// isControl reports whether op is a control opcode (RFC 6455 §5.5).
func (op opcode) isControl() bool { return op&0x8 != 0 }

// maxControlPayload is the largest control frame payload (RFC 6455 §5.5).
const maxControlPayload = 125

// maxHeaderSize is a frame header with a 64-bit length and a masking key.
const maxHeaderSize = 2 + 8 + 4

// header is a decoded frame header (RFC 6455 §5.2).
type header struct {
	fin              bool
	rsv1, rsv2, rsv3 bool
	op               opcode
	masked           bool
	key              [4]byte
	length           int64
}

// errFrame is a malformed frame: the connection fails with 1002.
type errFrame string

func (e errFrame) Error() string { return string(e) }

// readHeader reads one frame header from r into buf's scratch space. It
// rejects what is malformed in the header itself; whether the frame fits
// the connection (masking direction, RSV1, fragmentation state) is
// checkHeader's business.
func readHeader(r io.Reader, buf *[maxHeaderSize]byte) (header, error) {
	var h header
	if _, err := io.ReadFull(r, buf[:2]); err != nil {
		return h, err
	}
	b0, b1 := buf[0], buf[1]
	h.fin = b0&0x80 != 0
	h.rsv1, h.rsv2, h.rsv3 = b0&0x40 != 0, b0&0x20 != 0, b0&0x10 != 0
	h.op = opcode(b0 & 0x0F)
	h.masked = b1&0x80 != 0
	n := 0
	switch l := b1 & 0x7F; l {
	case 126:
		n = 2
	case 127:
		n = 8
	default:
		h.length = int64(l)
	}
	if h.masked {
		n += 4
	}
	if n > 0 {
		if _, err := io.ReadFull(r, buf[:n]); err != nil {
			return h, unexpected(err)
		}
	}
	ext := buf[:n]
	switch b1 & 0x7F {
	case 126:
		h.length = int64(binary.BigEndian.Uint16(ext))
		ext = ext[2:]
		// RFC 6455 §5.2: "the minimal number of bytes MUST be used".
		if h.length < 126 {
			return h, errFrame("16-bit length encodes a value below 126")
		}
	case 127:
		v := binary.BigEndian.Uint64(ext)
		ext = ext[8:]
		// RFC 6455 §5.2: the most significant bit MUST be 0.
		if v>>63 != 0 {
			return h, errFrame("64-bit length has its top bit set")
		}
		if v <= 0xFFFF {
			return h, errFrame("64-bit length encodes a value below 65536")
		}
		h.length = int64(v)
	}
	if h.masked {
		copy(h.key[:], ext)
	}
	if h.op.isControl() {
		// RFC 6455 §5.5: control frames are at most 125 bytes and MUST NOT
		// be fragmented.
		if h.length > maxControlPayload {
			return h, errFrame(fmt.Sprintf("control frame of %d bytes exceeds 125", h.length))
		}
		if !h.fin {
			return h, errFrame("fragmented control frame")
		}
	}
	switch h.op {
	case opContinuation, opText, opBinary, opClose, opPing, opPong:
	default:
		// RFC 6455 §5.2: reserved opcodes fail the connection.
		return h, errFrame(fmt.Sprintf("reserved opcode %#x", byte(h.op)))
	}
	// RFC 6455 §5.2: RSV2 and RSV3 are not defined by any extension we
	// negotiate.
	if h.rsv2 || h.rsv3 {
		return h, errFrame("reserved bit RSV2 or RSV3 set")
	}
	return h, nil
}

// unexpected turns an io.EOF inside a frame into io.ErrUnexpectedEOF: the
// peer closed mid-frame, which is not a clean end.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// appendHeader appends h's wire form to b, always with the minimal length
// encoding (RFC 6455 §5.2).
func appendHeader(b []byte, h header) []byte {
	b0 := byte(h.op)
	if h.fin {
		b0 |= 0x80
	}
	if h.rsv1 {
		b0 |= 0x40
	}
	if h.rsv2 {
		b0 |= 0x20
	}
	if h.rsv3 {
		b0 |= 0x10
	}
	var b1 byte
	if h.masked {
		b1 = 0x80
	}
	switch {
	case h.length < 126:
		b = append(b, b0, b1|byte(h.length))
	case h.length <= 0xFFFF:
		b = append(b, b0, b1|126)
		b = binary.BigEndian.AppendUint16(b, uint16(h.length))
	default:
		b = append(b, b0, b1|127)
		b = binary.BigEndian.AppendUint64(b, uint64(h.length))
	}
	if h.masked {
		b = append(b, h.key[:]...)
	}
	return b
}
