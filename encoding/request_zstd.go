package encoding

import (
	"encoding/binary"
	"io"
)

// zstdMaxBlock is the most a zstd block decodes to, Block_Maximum_Size
// (RFC 8878 §3.1.1.2.4): 128 KiB, or the window when smaller.
const zstdMaxBlock = 128 << 10

// zstdRequestWindow is the window a zstd request body limited to limit
// bytes is decoded with: one that decodes its first limit+1 bytes as the
// frame's own window would. A decoder produces whole blocks, so the block
// that holds byte limit+1 ends at most zstdMaxBlock later; no
// back-reference in it reaches further than its own end (RFC 8878
// §3.1.1.3: an offset reaches at most the bytes decoded so far), and none
// of its blocks is larger than zstdMaxBlock. Within RFC 9659's 8 MiB.
func zstdRequestWindow(limit int64) uint64 {
	return zstdWindowFor(min(limit, zstdMaxWindow) + zstdMaxBlock)
}

// zstdHead passes a zstd body through with each frame's window cut to
// window when larger. The decoder allocates the window a frame header
// states (Window_Descriptor, RFC 8878 §3.1.1.1.2), the sender's choice:
// klauspost's streaming encoder and the zstd CLI reading a pipe state 2 to
// 8 MiB whatever the body. zstdRequestWindow says why the cut changes
// nothing in what is read. The frames are followed block by block
// (§3.1.1.2) so that every frame's header is seen; skippable frames
// (§3.1.2) are passed over; anything else goes through untouched, for the
// decoder to refuse.
type zstdHead struct {
	r      io.Reader
	window uint64 // the largest window let through

	state    zstdHeadState
	skip     uint64 // bytes to pass before the next header field
	field    [4]byte
	n        int    // bytes of field read
	checksum bool   // the frame ends with Content_Checksum
	rest     uint64 // bytes of the frame header after Window_Descriptor
}

type zstdHeadState uint8

const (
	zstdMagic      zstdHeadState = iota // 4 bytes: a frame's magic number
	zstdDescriptor                      // Frame_Header_Descriptor
	zstdWindow                          // Window_Descriptor
	zstdSkippable                       // 4 bytes: a skippable frame's size
	zstdBlock                           // 3 bytes: a Block_Header
	zstdOpaque                          // not zstd: passed through
)

func (h *zstdHead) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.scan(p[:n])
	return n, err
}

// scan follows the frame structure through p, cutting windows in place.
func (h *zstdHead) scan(p []byte) {
	for len(p) > 0 && h.state != zstdOpaque {
		if h.skip > 0 {
			k := min(h.skip, uint64(len(p)))
			h.skip -= k
			p = p[k:]
			continue
		}
		b := &p[0]
		p = p[1:]
		switch h.state {
		case zstdMagic, zstdSkippable, zstdBlock:
			h.field[h.n] = *b
			h.n++
			if h.n == 4 || h.n == 3 && h.state == zstdBlock {
				h.n = 0
				h.fieldDone()
			}
		case zstdDescriptor:
			fcs := [4]uint64{0, 2, 4, 8}[*b>>6]
			dict := [4]uint64{0, 1, 2, 4}[*b&3]
			h.checksum = *b&4 != 0
			h.rest = fcs + dict
			if *b&0x20 != 0 { // Single_Segment_flag: no window descriptor
				if fcs == 0 {
					h.rest++ // Frame_Content_Size_flag 0 means one byte here
				}
				h.skip = h.rest
				h.state = zstdBlock
			} else {
				h.state = zstdWindow
			}
		case zstdWindow:
			if zstdWindowOf(*b) > h.window {
				*b = zstdDescriptorOf(h.window)
			}
			h.skip = h.rest
			h.state = zstdBlock
		}
	}
}

// fieldDone acts on a complete magic number, skippable size or block header.
func (h *zstdHead) fieldDone() {
	switch h.state {
	case zstdMagic:
		switch m := binary.LittleEndian.Uint32(h.field[:]); {
		case m == 0xFD2FB528:
			h.state = zstdDescriptor
		case m&^0xF == 0x184D2A50:
			h.state = zstdSkippable
		default:
			h.state = zstdOpaque
		}
	case zstdSkippable:
		h.skip = uint64(binary.LittleEndian.Uint32(h.field[:]))
		h.state = zstdMagic
	case zstdBlock:
		header := uint32(h.field[0]) | uint32(h.field[1])<<8 | uint32(h.field[2])<<16
		size := uint64(header >> 3)
		switch header >> 1 & 3 {
		case 1: // RLE_Block: one byte, repeated size times
			size = 1
		case 3: // Reserved
			h.state = zstdOpaque
			return
		}
		h.skip = size
		if header&1 != 0 { // Last_Block
			if h.checksum {
				h.skip += 4
			}
			h.state = zstdMagic
		}
	}
}

// zstdWindowOf is the Window_Size a Window_Descriptor states.
func zstdWindowOf(d byte) uint64 {
	base := uint64(1) << (10 + d>>3)
	return base + base/8*uint64(d&7)
}

// zstdDescriptorOf is the smallest Window_Descriptor that states at least w.
func zstdDescriptorOf(w uint64) byte {
	for d := range 256 {
		if zstdWindowOf(byte(d)) >= w {
			return byte(d)
		}
	}
	return 0xff
}
