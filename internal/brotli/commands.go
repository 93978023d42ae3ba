package brotli

import (
	"encoding/binary"

	"github.com/squeezehttp/squeeze/internal/deflate"
)

// commands turns the match finder's sequences for src into insert-and-copy
// commands, with repeats of the last distance and words of the static
// dictionary in place of some literals, and counts them (see count).
func (e *Encoder) commands(src []byte) {
	e.resetCommands()
	x := brDict()
	ins, pos := uint32(0), uint32(0)
	seqs := e.m.Seqs
	for i := 0; i < len(seqs); i++ {
		s := seqs[i]
		ins += s.Lits
		pos += s.Lits
		if s.Length == 0 {
			continue
		}
		ins = e.literals(x, src, pos-ins, pos)
		n, d := s.Length, s.Dist
		// DEFLATE caps a match at 258 bytes; a brotli copy takes the run
		// whole, the matches that continue it at the same distance.
		for i+1 < len(seqs) && seqs[i+1].Lits == 0 && seqs[i+1].Length != 0 && seqs[i+1].Dist == d {
			i++
			n += seqs[i].Length
		}
		if last := e.rb[(e.ri-1)&3]; d != last && last <= pos &&
			uint32(deflate.MatchLen(src[pos-last:], src[pos:pos+n])) == n {
			// The same bytes at the last distance, which takes fewer bits.
			d = last
		}
		e.copyCommand(ins, n, d)
		pos += n
		ins = 0
	}
	if ins > 0 {
		ins = e.literals(x, src, pos-ins, pos)
	}
	if ins > 0 {
		// The body ends inside this command's literals, so the decoder
		// reads no copy (its length is ignored) and no distance.
		c := e.push()
		c.ins, c.ic, c.dcode = ins, brInsertCode(ins), noDistance
		c.sym = brCommandSymbol(c.ic, 0, true)
		e.count(c)
	}
}

// copyCommand adds and counts the command of ins literals and then a copy
// of n bytes from distance d back, sending d as a short code where the last
// distances allow and keeping them as a decoder does (RFC 7932 §4). It
// fills the command in its slot of e.cmds (see push).
func (e *metaCoder) copyCommand(ins, n, d uint32) {
	c := e.push()
	c.ins, c.copy, c.ic, c.cc = ins, n, brInsertCode(ins), brCopyCode(n)
	rb, ri := &e.rb, e.ri
	switch d {
	case rb[(ri-1)&3]:
		c.dcode = 0
	case rb[(ri-2)&3]:
		c.dcode = 1
	case rb[(ri-3)&3]:
		c.dcode = 2
	case rb[ri&3]:
		c.dcode = 3
	default:
		c.dcode, c.dextra, c.dbits = brDistanceCode(d)
	}
	if c.dcode != 0 {
		// Distance code 0 leaves the ring as it is; the others push.
		rb[ri&3] = d
		e.ri++
	}
	c.sym = brCommandSymbol(c.ic, c.cc, c.dcode == 0)
	if c.sym < 128 {
		c.dcode = noDistance
	}
	e.count(c)
}

// resetCommands empties e.cmds and the counts count keeps, and sets the last
// distances as a decoder starts them (RFC 7932 §4).
func (e *metaCoder) resetCommands() {
	e.rb, e.ri = [4]uint32{16, 15, 11, 4}, 0
	e.cmds = e.cmds[:0]
	clear(e.cmd[:])
	clear(e.dist[:])
	e.extra = 0
}

// push appends a zero command to e.cmds and returns it, for the caller to
// fill in and then count. Commands are written in place, not built as a
// brCommand value and copied in: the compiler keeps such a value (more
// than four fields) in memory and copies it with 16-byte loads right after
// the narrow stores of its fields, and a load that spans several pending
// stores cannot take its data from them but waits for them to be written
// (a store-forwarding stall).
func (e *metaCoder) push() *brCommand {
	e.cmds = append(e.cmds, brCommand{})
	return &e.cmds[len(e.cmds)-1]
}

// count counts the symbols of command c in e.cmd and e.dist and its extra
// bits in e.extra.
func (e *metaCoder) count(c *brCommand) {
	e.cmd[c.sym]++
	e.extra += int(brInsExtra[c.ic])
	if c.copy > 0 {
		e.extra += int(brCopyExtra[c.cc])
	}
	if c.dcode != noDistance {
		e.dist[c.dcode]++
		e.extra += int(c.dbits)
	}
}

// wordCommand adds and counts the command of ins literals and then word w,
// at pos bytes into the body, filling it in its slot of e.cmds (see push).
func (e *metaCoder) wordCommand(ins, pos uint32, w brWordRef) {
	c := e.push()
	c.ins, c.copy, c.cut, c.ic, c.cc = ins, w.l, uint8(w.cut), brInsertCode(ins), brCopyCode(w.l)
	c.dcode, c.dextra, c.dbits = brDistanceCode(w.distance(pos))
	c.sym = brCommandSymbol(c.ic, c.cc, false)
	e.count(c)
}

// literals looks in the literals src[start:end] for repeats of the last
// distance and for words of the static dictionary x, and sends those that
// take fewer bits than the literals they replace, each as a command of the
// literals before it and the copy or word. It returns the number of
// literals left at the end, for the command that follows. A word does not
// change the last distances (RFC 7932 §4).
func (e *Encoder) literals(x *brDictIndex, src []byte, start, end uint32) (ins uint32) {
	if end-start < brMinWord {
		return end - start
	}
	lits := &e.m.Stats.Lit
	from := start // literals src[from:p] are not yet in a command
	// sent takes the n literals at p, which the command just added stands
	// for, out of the literal counts.
	sent := func(p, n uint32) uint32 {
		for _, b := range src[p : p+n] {
			lits[b]--
		}
		from = p + n
		return from
	}
	// The commands sent here leave the last distance as it is.
	d := e.rb[(e.ri-1)&3]
	for p := start; p+brMinWord <= end; {
		v := binary.LittleEndian.Uint32(src[p:])
		if d <= p && binary.LittleEndian.Uint32(src[p-d:]) == v {
			// The last distance again: a command that sends no distance.
			n := brMinWord + uint32(deflate.MatchLen(src[p-d+brMinWord:], src[p+brMinWord:end]))
			e.copyCommand(p-from, n, d)
			p = sent(p, n)
			continue
		}
		h := hashDict(v)
		if x.empty(h) {
			p++ // most positions: no word has this hash
			continue
		}
		// A literal takes about 6 bits, a reference about 10 bits (a
		// command symbol and a distance symbol) more than its distance's
		// extra bits.
		w, saves := x.match(src[p:end], p, v, h)
		if saves <= 10 {
			p++
			continue
		}
		e.wordCommand(p-from, p, w)
		p = sent(p, w.out())
	}
	return end - from
}

// writeCommands writes the commands with their literals and distances. As
// the DEFLATE writers do, it keeps the bit buffer in locals and writes it
// out 32 bits at a time; every piece is at most 24 bits.
func (e *metaCoder) writeCommands(src []byte) {
	acc, n, buf := e.bw.Bits, e.bw.N, e.bw.Buf
	flush := func() {
		if n >= 32 {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(acc))
			acc, n = acc>>32, n-32
		}
	}
	litBits, litLen := e.lit.code.Bits[:256], e.lit.code.Len[:256]
	cmdBits, cmdLen := e.ins.code.Bits[:brNumCommands], e.ins.code.Len[:brNumCommands]
	distBits, distLen := e.dst.code.Bits[:brNumDistances], e.dst.code.Len[:brNumDistances]
	pos := 0
	for i := range e.cmds {
		c := &e.cmds[i]
		acc |= uint64(cmdBits[c.sym%brNumCommands]) << (n & 63)
		n += uint(cmdLen[c.sym%brNumCommands])
		flush()
		acc |= uint64(c.ins-brInsBase[c.ic%24]) << (n & 63)
		n += uint(brInsExtra[c.ic%24])
		flush()
		if c.copy > 0 {
			acc |= uint64(c.copy-brCopyBase[c.cc%24]) << (n & 63)
			n += uint(brCopyExtra[c.cc%24])
			flush()
		}
		for _, b := range src[pos : pos+int(c.ins)] {
			acc |= uint64(litBits[b]) << (n & 63)
			n += uint(litLen[b])
			flush()
		}
		pos += int(c.ins) + int(c.copy) - int(c.cut)
		if c.dcode != noDistance {
			d := c.dcode % brNumDistances
			acc |= uint64(distBits[d]) << (n & 63)
			n += uint(distLen[d])
			flush()
			acc |= uint64(c.dextra) << (n & 63)
			n += uint(c.dbits)
			flush()
		}
	}
	e.bw.Bits, e.bw.N, e.bw.Buf = acc, n, buf
}
