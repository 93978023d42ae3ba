package brotli

import (
	"github.com/squeezehttp/squeeze/internal/deflate"

	"encoding/binary"
	"math/bits"
)

// Encoder compresses one body known whole into a complete brotli
// stream (RFC 7932) of one meta-block, or of one uncompressed meta-block
// when that is smaller. It finds matches as deflate.WholeEncoder does; between
// them, it sends repeats of the last distance and words of the static
// dictionary (whole, or with up to 9 bytes cut from their end) in place of
// literals where that is shorter; and it codes it all with brotli's
// simplest meta-block layout: one block type and one prefix code per
// category (literals, insert-and-copy commands, distances), no context
// modelling. Literal counts are smoothed before their code is built, so
// that the code's description run-length codes well. A match whose bytes
// also repeat at the last distance takes that distance; repeats of the four
// last distances take brotli's short distance codes, and a command whose
// copy reuses the last distance carries no distance at all where its
// lengths allow (an insert below 10 bytes, a copy below 70).
//
// It is made for small HTTP responses. On the 1 and 4 KB cuts of the
// benchmark corpus's JSON, CSS and JavaScript its output is 0.5-6 % smaller
// than andybalholm/brotli's at quality 4, for about a third of the work
// (TestBrotliEncoderSizes and BenchmarkBrotliEncoder show both). Its window
// is the smallest that holds the body (1 KB at least, under twice the
// body's length above that), so a decoder needs little more memory than
// the body.
//
// A Encoder is not safe for concurrent use; the zero value is ready
// to use. The first use of any Encoder builds an index of the
// dictionary, shared by all and kept for the life of the program (145 KB).
type Encoder struct {
	m deflate.WholeEncoder // the match finder, its tables reused across bodies
	// The body's commands, their symbol counts and extra bits.
	cmds  []brCommand
	cmd   [brNumCommands]uint32
	dist  [brNumDistances]uint32
	extra int
	// The last four distances, the last at rb[(ri-1)&3].
	rb [4]uint32
	ri uint32
	// The three prefix codes, the code-length code that describes each,
	// and scratch space for smoothing counts.
	lit, ins, dst brTree
	codeLen       deflate.HuffCode
	smooth        [brNumCommands]uint32
	rle           []uint16 // one code's run-length coded lengths: symbol<<8 | extra
	bw            deflate.BitWriter
}

// Alphabet sizes (RFC 7932 §3.3), with distances for NPOSTFIX = 0,
// NDIRECT = 0: 16 short codes and 48 of the form 16 + 2·(nbits-1) + bit.
const (
	brNumLiterals  = 256
	brNumCommands  = 704
	brNumDistances = 64
	brNumCodeLen   = 18
	brMaxCodeLen   = 15
	brMaxCLCodeLen = 5
	// MaxBody is the longest body one Encoder stream holds:
	// the largest window, 2^24 bytes less 16 (RFC 7932 §9.1).
	MaxBody    = 1<<24 - 16
	noDistance = 0xff // brCommand.dcode of a command that sends no distance
)

// brCommand is one insert-and-copy command: ins literals, then copy bytes
// from distance back (dcode, its code, and dextra, its extra bits). The last
// command of a body may have only literals (copy 0).
type brCommand struct {
	ins, copy uint32
	dextra    uint32
	sym       uint16 // insert-and-copy symbol
	ic, cc    uint8  // insert and copy length codes
	dcode     uint8  // distance symbol, or noDistance
	dbits     uint8  // extra bits of the distance
	cut       uint8  // of a dictionary word: the bytes its transform omits
}

// Insert and copy length codes (RFC 7932 §5): base length and extra bits.
var (
	brInsBase   = [24]uint32{0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 18, 26, 34, 50, 66, 98, 130, 194, 322, 578, 1090, 2114, 6210, 22594}
	brInsExtra  = [24]uint8{0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 12, 14, 24}
	brCopyBase  = [24]uint32{2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 18, 22, 30, 38, 54, 70, 102, 134, 198, 326, 582, 1094, 2118}
	brCopyExtra = [24]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 24}
	// brCellBase is the first insert-and-copy symbol of the cell of insert
	// codes 8·(i/3)... and copy codes 8·(i%3)... when the command sends its
	// distance (RFC 7932 §5, the table of symbols 128..703).
	brCellBase = [9]uint16{128, 192, 384, 256, 320, 512, 448, 576, 640}
	// brCodeLenOrder is the order code-length code lengths are sent in
	// (RFC 7932 §3.5).
	brCodeLenOrder = [brNumCodeLen]uint8{1, 2, 3, 4, 0, 5, 17, 6, 16, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	// The fixed code of code-length code lengths 0..5 (RFC 7932 §3.5),
	// as LSB-first bits and their count.
	brCLLenBits  = [6]uint8{0, 7, 3, 2, 1, 15}
	brCLLenCount = [6]uint8{2, 4, 3, 2, 2, 4}
)

func brInsertCode(n uint32) uint8 {
	switch {
	case n < 6:
		return uint8(n)
	case n < 130:
		nb := uint32(bits.Len32(n-2)) - 2
		return uint8(nb<<1 + (n-2)>>nb + 2)
	case n < 2114:
		return uint8(bits.Len32(n-66) - 1 + 10)
	case n < 6210:
		return 21
	case n < 22594:
		return 22
	}
	return 23
}

func brCopyCode(n uint32) uint8 {
	switch {
	case n < 10:
		return uint8(n - 2)
	case n < 134:
		nb := uint32(bits.Len32(n-6)) - 2
		return uint8(nb<<1 + (n-6)>>nb + 4)
	case n < 2118:
		return uint8(bits.Len32(n-70) - 1 + 12)
	}
	return 23
}

// brCommandSymbol combines insert code ic and copy code cc into an
// insert-and-copy symbol; lastDistance asks for the cells whose commands
// reuse the last distance without sending it, which only codes below 8 and
// 16 have.
func brCommandSymbol(ic, cc uint8, lastDistance bool) uint16 {
	low := uint16(ic&7)<<3 | uint16(cc&7)
	if lastDistance && ic < 8 && cc < 16 {
		if cc < 8 {
			return low
		}
		return 64 | low
	}
	return brCellBase[3*(ic>>3)+cc>>3] | low
}

// brDistanceCode returns the distance symbol of distance d (at least 1)
// beyond the short codes, and its extra bits: with NPOSTFIX and NDIRECT 0,
// d+3 is (2+bit)<<nbits + extra.
func brDistanceCode(d uint32) (code uint8, extra uint32, nbits uint8) {
	x := d + 3
	nb := uint32(bits.Len32(x)) - 2
	hi := x >> nb & 1
	return uint8(16 + 2*(nb-1) + hi), x - (2+hi)<<nb, uint8(nb)
}

// brWindowBits is the smallest window, as log2 of bytes, that holds n bytes
// (RFC 7932 §9.1: 2^w-16 bytes, w from 10 to 24).
func brWindowBits(n int) uint8 {
	return uint8(min(max(bits.Len(uint(n+15)), 10), 24))
}

// Append compresses src, at most MaxBody bytes, and appends the
// brotli stream to dst. src must not overlap dst's spare capacity.
func (e *Encoder) Append(dst, src []byte) []byte {
	if len(src) > MaxBody {
		panic("deflate: Encoder body longer than MaxBody")
	}
	e.bw = deflate.BitWriter{Buf: dst}
	defer func() { e.bw.Buf = nil }() // dst belongs to the caller
	if len(src) == 0 {
		// The smallest window, then ISLAST and ISLASTEMPTY.
		e.writeWindow(brWindowBits(0))
		e.bw.WriteBits(0b11, 2)
		e.bw.Align()
		return e.bw.Buf
	}
	m := &e.m
	m.Reset(len(src))
	m.Match(src)
	e.commands(src)
	return e.finish(src)
}

// finish writes the stream of src, whose commands are in e.cmds and counted
// (see count), to e.bw.
func (e *Encoder) finish(src []byte) []byte {
	if e.codeLen.Len == nil {
		e.lit.code = deflate.NewHuffCode(brNumLiterals)
		e.ins.code = deflate.NewHuffCode(brNumCommands)
		e.dst.code = deflate.NewHuffCode(brNumDistances)
		e.codeLen = deflate.NewHuffCode(brNumCodeLen)
	}
	e.writeWindow(brWindowBits(len(src)))
	// Smoothing literal counts saves 0.4 % of the output on the 1-4 KB
	// corpus bodies for 2 % more time. On commands it would save as much
	// again for 5 % more time (their codes would cover many more symbols),
	// and on the few distance symbols it rarely pays.
	compressed := e.extra + e.code(&e.lit, e.m.Stats.Lit[:brNumLiterals], 8, true) +
		e.code(&e.ins, e.cmd[:], 10, false) + e.code(&e.dst, e.dist[:], 6, false)
	// Past what both share (WBITS, ISLAST, MNIBBLES, MLEN), the compressed
	// meta-block takes ISLASTEMPTY, 13 bits of header and compressed bits;
	// the uncompressed one ISUNCOMPRESSED, at most 7 bits of padding, the
	// bytes, and the empty last meta-block (2 bits and padding).
	if 8*len(src)+16 < compressed+13 {
		e.writeMetaBlockHeader(len(src), false)
		e.bw.WriteBits(1, 1) // ISUNCOMPRESSED
		e.bw.Align()
		e.bw.Buf = append(e.bw.Buf, src...)
		e.bw.WriteBits(0b11, 2) // ISLAST, ISLASTEMPTY
		e.bw.Align()
		return e.bw.Buf
	}
	e.writeMetaBlockHeader(len(src), true)
	// One block type of literals, commands and distances (1 bit each),
	// NPOSTFIX and NDIRECT 0 (2 + 4 bits), the literal context mode
	// (2 bits), one literal and one distance prefix code (1 bit each).
	e.bw.WriteBits(0, 13)
	for _, t := range []*brTree{&e.lit, &e.ins, &e.dst} {
		for i, v := range t.header {
			e.bw.WriteBits(v, uint8(min(32, t.bits-32*i)))
		}
	}
	e.writeCommands(src)
	e.bw.Align()
	return e.bw.Buf
}

// writeWindow writes WBITS (RFC 7932 §9.1).
func (e *Encoder) writeWindow(w uint8) {
	switch {
	case w == 16:
		e.bw.WriteBits(0, 1)
	case w >= 18:
		e.bw.WriteBits(uint32(w-17)<<1|1, 4)
	case w == 17:
		e.bw.WriteBits(1, 7)
	default:
		e.bw.WriteBits(uint32(w-8)<<4|1, 7)
	}
}

// writeMetaBlockHeader writes ISLAST, ISLASTEMPTY when last, MNIBBLES and
// MLEN-1 for a meta-block of n bytes (RFC 7932 §9.2); an uncompressed
// meta-block is never the last.
func (e *Encoder) writeMetaBlockHeader(n int, last bool) {
	nibbles := uint8(4)
	for n-1 >= 1<<(4*nibbles) {
		nibbles++
	}
	if last {
		e.bw.WriteBits(1, 2) // ISLAST, not ISLASTEMPTY
	} else {
		e.bw.WriteBits(0, 1)
	}
	e.bw.WriteBits(uint32(nibbles-4), 2)
	e.bw.WriteBits(uint32(n-1), 4*nibbles)
}

// commands turns the match finder's tokens for src into insert-and-copy
// commands, with repeats of the last distance and words of the static
// dictionary in place of some literals, and counts them (see count).
func (e *Encoder) commands(src []byte) {
	e.resetCommands()
	x := brDict()
	ins, pos := uint32(0), uint32(0)
	for _, t := range e.m.Tokens {
		if t&deflate.MatchFlag == 0 {
			ins++
			pos++
			continue
		}
		ins = e.literals(x, src, pos-ins, pos)
		n, d := uint32(t>>16&0xff)+3, uint32(t&0xffff)+1
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
func (e *Encoder) copyCommand(ins, n, d uint32) {
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
func (e *Encoder) resetCommands() {
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
func (e *Encoder) push() *brCommand {
	e.cmds = append(e.cmds, brCommand{})
	return &e.cmds[len(e.cmds)-1]
}

// count counts the symbols of command c in e.cmd and e.dist and its extra
// bits in e.extra.
func (e *Encoder) count(c *brCommand) {
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
func (e *Encoder) wordCommand(ins, pos uint32, w brWordRef) {
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
// writeTokens, it keeps the bit buffer in locals and writes it out 32 bits
// at a time; every piece is at most 24 bits.
func (e *Encoder) writeCommands(src []byte) {
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

// code builds t's prefix code for the symbol counts freq, from smoothed
// counts when smooth (see smoothForRLE), and returns the bits the code's
// description and the symbols take.
func (e *Encoder) code(t *brTree, freq []uint32, alphabetBits uint8, smooth bool) int {
	// Symbols past the last one used need no code: leave them out of
	// every pass over the alphabet.
	n := len(freq)
	for n > 1 && freq[n-1] == 0 {
		n--
	}
	freq = freq[:n]
	counts := freq
	if smooth {
		counts = e.smooth[:len(freq)]
		smoothForRLE(counts, freq)
	}
	t.make(e, counts, alphabetBits)
	if t.single {
		// Its symbol takes no bits (cost would count it as uncoded).
		return t.bits
	}
	return t.bits + t.code.Cost(freq)
}

// smoothForRLE sets out to the counts freq with stretches of similar counts
// evened out to their mean, unused symbols inside a stretch included, so
// that the stretch's code lengths come out equal and take one repeat code
// in the code's description (RFC 7932 §3.5). It is the idea of the
// reference encoder's histogram optimisation for run-length coding: the
// data grows a little where a count moves away from its own, and the
// description shrinks by more, most of all on small bodies with sparse
// alphabets. Runs that already code well (5 zeros, 7 equal counts) are
// kept as they are, used symbols stay used, and counts after the last used
// symbol stay zero.
func smoothForRLE(out, freq []uint32) {
	copy(out, freq)
	n := len(freq)
	for n > 0 && freq[n-1] == 0 {
		n--
	}
	// The stretch is out[start:i], its counts within tolerance of r, in
	// 1/256ths of a count: the mean of the first three counts until it has
	// four, then its own mean. It grows by runs of equal counts.
	const tolerance = 5 * 256
	start, sum, r := 0, uint32(0), uint32(0)
	for i := 0; i < n; {
		v, j := freq[i], i+1
		for j < n && freq[j] == v {
			j++
		}
		switch {
		case j-i >= 7 || v == 0 && j-i >= 5:
			// A run that codes well as it is ends the stretch.
			evenOut(out[start:i], sum)
			start, sum = j, 0
		case i > start && absDiff(256*v, r) < tolerance:
			sum += v * uint32(j-i)
		default:
			evenOut(out[start:i], sum)
			start, sum = i, v*uint32(j-i)
			r = 256 * (v + freq[min(i+1, n-1)] + freq[min(i+2, n-1)]) / 3
		}
		if k := uint32(j - start); k >= 4 {
			r = 256 * sum / k
		}
		i = j
	}
	evenOut(out[start:n], sum)
}

// evenOut sets a stretch of counts that sum to sum to their mean, at least
// 1 when any is used, if the stretch is long enough for a repeat code (a
// first length and three repeats).
func evenOut(stretch []uint32, sum uint32) {
	k := uint32(len(stretch))
	if k < 4 || sum == 0 {
		return
	}
	mean := max((sum+k/2)/k, 1)
	for j := range stretch {
		stretch[j] = mean
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// brTree is one prefix code of a meta-block and its description (RFC 7932
// §3.4, §3.5), packed LSB-first 32 bits to a word.
type brTree struct {
	code   deflate.HuffCode
	header []uint32
	bits   int
	single bool // one symbol, coded in no bits
	w      deflate.HeaderBits
}

func (t *brTree) piece(v uint32, n uint8) { t.w.Put(v, n) }

// make builds t's code for the symbol counts freq and describes it: as a
// simple prefix code (symbols listed in alphabetBits bits each) for up to
// four symbols, else as code lengths run-length coded with a code-length
// code.
func (t *brTree) make(e *Encoder, freq []uint32, alphabetBits uint8) {
	t.w = deflate.HeaderBits{Words: t.header[:0]}
	t.single = false
	t.describe(e, freq, alphabetBits)
	t.header, t.bits = t.w.End()
}

func (t *brTree) describe(e *Encoder, freq []uint32, alphabetBits uint8) {
	var syms [4]uint16
	used := 0
	for s, f := range freq {
		if f > 0 {
			if used < 4 {
				syms[used] = uint16(s)
			}
			used++
		}
	}
	if used <= 1 {
		// One symbol (or none: the alphabet is never coded), with a code
		// of no bits.
		clear(t.code.Len)
		t.code.Bits[syms[0]] = 0
		t.single = true
		t.piece(1, 2) // HSKIP 1: a simple code
		t.piece(0, 2) // NSYM-1
		t.piece(uint32(syms[0]), alphabetBits)
		return
	}
	clear(t.code.Len[len(freq):])
	e.m.HB.Build(deflate.HuffCode{Len: t.code.Len[:len(freq)], Bits: t.code.Bits[:len(freq)]}, freq, brMaxCodeLen)
	if used <= 4 {
		// The lengths are 1,1 or 1,2,2 or 2,2,2,2 or 1,2,3,3; a decoder
		// takes them in that order, so list the symbols by length.
		s := syms[:used]
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && t.code.Len[s[j]] < t.code.Len[s[j-1]]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
		t.piece(1, 2)
		t.piece(uint32(used-1), 2)
		for _, v := range s {
			t.piece(uint32(v), alphabetBits)
		}
		if used == 4 {
			tree := uint32(0)
			if t.code.Len[s[0]] == 1 {
				tree = 1
			}
			t.piece(tree, 1)
		}
		return
	}
	lens := t.code.Len[:len(freq)]
	end := len(lens)
	for lens[end-1] == 0 {
		end--
	}
	// Run-length code the lengths up to the last one used: a decoder stops
	// when the code is complete.
	e.rle = e.rle[:0]
	var clFreq [brNumCodeLen]uint32
	prev := uint8(8) // the length code 16 repeats before any is sent
	for i := 0; i < end; {
		v, reps := lens[i], 1
		for i+reps < end && lens[i+reps] == v {
			reps++
		}
		i += reps
		if v == 0 {
			e.rle = appendRepeats(e.rle, 0, 17, 3, 11, reps)
		} else {
			if v != prev {
				e.rle = append(e.rle, uint16(v)<<8)
				reps--
			}
			e.rle = appendRepeats(e.rle, v, 16, 2, 7, reps)
			prev = v
		}
	}
	for _, r := range e.rle {
		clFreq[r>>8]++
	}
	cl := e.codeLen
	e.m.HB.Build(cl, clFreq[:], brMaxCLCodeLen)
	skip := 0
	if cl.Len[brCodeLenOrder[0]] == 0 && cl.Len[brCodeLenOrder[1]] == 0 {
		skip = 2
		if cl.Len[brCodeLenOrder[2]] == 0 {
			skip = 3
		}
	}
	last := brNumCodeLen
	for cl.Len[brCodeLenOrder[last-1]] == 0 {
		last--
	}
	t.piece(uint32(skip), 2) // HSKIP
	for _, s := range brCodeLenOrder[skip:last] {
		l := cl.Len[s]
		t.piece(uint32(brCLLenBits[l]), brCLLenCount[l])
	}
	for _, r := range e.rle {
		s := r >> 8
		l := cl.Len[s]
		switch s {
		case 16:
			t.piece(uint32(cl.Bits[s])|uint32(r&0xff)<<(l&31), l+2)
		case 17:
			t.piece(uint32(cl.Bits[s])|uint32(r&0xff)<<(l&31), l+3)
		default:
			t.piece(uint32(cl.Bits[s]), l)
		}
	}
}

// appendRepeats appends reps more code lengths v: below 3 as they are,
// else as a chain of repeat codes (16 for the previous length, 17 for
// zeros) with extraBits each. A decoder reads consecutive repeat codes as
// one count, the earlier ones the more significant digits
// (RFC 7932 §3.5), so the chain's digits are found from the least
// significant and appended in reverse. awkward is the one count for which
// sending one length first and then a chain is cheaper (7 for 16, 11 for
// 17: their chains would take two codes).
func appendRepeats(rle []uint16, v uint8, code uint16, extraBits uint, awkward, reps int) []uint16 {
	if reps == awkward {
		rle = append(rle, uint16(v)<<8)
		reps--
	}
	if reps < 3 {
		for range reps {
			rle = append(rle, uint16(v)<<8)
		}
		return rle
	}
	start := len(rle)
	r := reps - 3
	for {
		rle = append(rle, code<<8|uint16(r&(1<<extraBits-1)))
		r >>= extraBits
		if r == 0 {
			break
		}
		r--
	}
	for i, j := start, len(rle)-1; i < j; i, j = i+1, j-1 {
		rle[i], rle[j] = rle[j], rle[i]
	}
	return rle
}
