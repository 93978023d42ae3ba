package wsdeflate

import (
	"errors"
	"io"
)

// trailer is the end of the empty stored block that a sync flush emits and
// RFC 7692 §7.2.1 strips from every message; §7.2.2 has the receiver put it
// back before inflating.
var trailer = [4]byte{0x00, 0x00, 0xff, 0xff}

// errEndOfMessage is what a source returns once a message and its trailer
// have been read. The inflater only asks for more after it has finished the
// trailer's empty block, so this error means "message complete", not
// "truncated".
var errEndOfMessage = errors.New("wsdeflate: end of message")

// source feeds one message's payload, then the trailer, to a flate reader
// that lives across messages. It is an io.ByteReader, so the reader never
// reads ahead of what it decodes and its state at the end of a message is
// exactly the state the next message starts from.
type source struct {
	buf     []byte
	pos     int
	r       io.Reader // streaming: more payload comes from r; nil otherwise
	rDone   bool      // r has returned io.EOF
	scratch []byte    // refill buffer for r
	trailed bool      // buf is the trailer
}

func (s *source) reset(payload []byte, r io.Reader) {
	s.buf, s.pos, s.r, s.rDone, s.trailed = payload, 0, r, r == nil, false
}

// consumed reports whether the whole payload and the trailer have been read.
func (s *source) consumed() bool {
	return s.trailed && s.pos == len(s.buf)
}

func (s *source) fill() error {
	for tries := 0; !s.rDone; tries++ {
		if s.scratch == nil {
			s.scratch = make([]byte, 4096)
		}
		n, err := s.r.Read(s.scratch)
		if n > 0 {
			s.buf, s.pos = s.scratch[:n], 0
			return nil
		}
		switch {
		case err == io.EOF:
			s.rDone = true
		case err != nil:
			return err
		case tries > 100:
			return io.ErrNoProgress
		}
	}
	if !s.trailed {
		s.buf, s.pos, s.trailed = trailer[:], 0, true
		return nil
	}
	return errEndOfMessage
}

func (s *source) ReadByte() (byte, error) {
	if s.pos >= len(s.buf) {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	b := s.buf[s.pos]
	s.pos++
	return b, nil
}

func (s *source) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if s.pos >= len(s.buf) {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.buf[s.pos:])
	s.pos += n
	return n, nil
}
