package encoding

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"time"
	"unsafe"
)

// state is where a response stands in the decision to compress it, which is
// taken as late as possible: at the first Write that brings the held-back body
// to BufferSize, at a Flush, or when the handler returns, but never before
// the handler ran, since ServeContent and error paths change the headers.
type state uint8

const (
	undecided   state = iota // headers not sent; body held back in buf
	identity                 // headers sent or left to the server; body passes through
	compressing              // headers sent; body streams through enc
	hijacked                 // the handler took the connection
	answered                 // a 304 or 412 sent in its place; the body is dropped
	finished                 // the handler returned; the writer is dead
)

// errFinished is what a write after the handler returned gets: the response
// is over, and its buffers belong to others.
var errFinished = errors.New("encoding: write after the handler returned")

// responseWriter is the http.ResponseWriter the wrapped handler sees. It is
// not pooled, although that would save an allocation: a goroutine that the
// handler left writing must find a dead writer, not the next request's.
type responseWriter struct {
	rw     http.ResponseWriter
	req    *http.Request
	s      *settings
	choice choice // the codings the request can have
	offer  *offer // the one decided on once the header is final, nil for identity

	state       state
	status      int   // from WriteHeader; 0 until then
	bypass      bool  // Bypass was called
	skip        Skip  // why the body went out uncompressed, for Stats.Skip
	cond        conds // the request's conditions the middleware evaluates
	conditional bool  // the middleware answered them with a 304 or 412
	headCoded   bool  // a HEAD's header announces offer's coding, as its GET's would

	buf *[]byte   // held-back body while undecided
	enc Writer    // the streaming encoder while compressing
	out byteCount // counts what reaches rw

	// flushing is set while a Flush commits the response; streaming, when
	// enc is the codec's stream Writer, which idle, once the stream has
	// flushed, gives back its live state after Config.IdleRelease.
	flushing  bool
	streaming bool
	idle      *idleRelease
	// deferred says that a flush sent the header before the first byte of
	// a compressed body, whose encoder is chosen by what follows
	// (holdDeferred).
	deferred bool

	reqBody *decodedBody // the decoding request body, with DecodeRequests

	in      int64         // body bytes the handler wrote
	cache   CacheResult   // what Config.Cache did
	encTime time.Duration // time spent in the encoder, when OnResponse wants it

	// contentLength backs the Content-Length of a body compressed whole, so
	// that setting the header allocates nothing. net/http may read the
	// header after the handler returned, so release keeps it.
	contentLength headerInt
}

// headerInt is a header value holding a decimal number, with the storage for
// its digits, so that setting it allocates neither the []string nor the
// string.
type headerInt struct {
	value  [1]string
	digits [20]byte // the longest int64
}

// set makes c hold n, which must not be negative, and returns the value to
// put in the header. The string it returns shares c's digits, so c must not
// be set again while a header holds the value: each responseWriter sets it
// at most once. The digits are written by hand, last first: for the few
// digits of a held-back body's length, strconv.AppendInt costs more than twice
// the instructions.
func (c *headerInt) set(n int) []string {
	i := len(c.digits)
	for u := uint(n); ; {
		i--
		c.digits[i] = byte('0' + u%10)
		if u /= 10; u == 0 {
			break
		}
	}
	c.value[0] = unsafe.String(&c.digits[i], len(c.digits)-i)
	return c.value[:]
}

func newResponseWriter(rw http.ResponseWriter, r *http.Request, s *settings, c choice) *responseWriter {
	w := &responseWriter{rw: rw, req: r, s: s, choice: c}
	w.out.w = rw
	return w
}

// Header returns the response header map, which the middleware edits when it
// commits (Content-Encoding, Vary, ETag, Content-Length).
func (w *responseWriter) Header() http.Header { return w.rw.Header() }

// WriteHeader records the status; informational responses (1xx) go out at
// once, and so does any header that settles the decision by itself.
func (w *responseWriter) WriteHeader(code int) {
	switch {
	case w.state != undecided:
		if w.state == identity {
			if w.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
				w.status = code // a tunnel's response, passed through from the start
			}
			w.rw.WriteHeader(code) // let net/http report a superfluous call
		}
		return
	case code == http.StatusSwitchingProtocols:
		w.state = identity
		w.status, w.skip = code, SkipUpgrade
		w.rw.WriteHeader(code)
		return
	case code >= 100 && code < 200:
		w.rw.WriteHeader(code) // 103 Early Hints and the like pass through
		return
	case w.status != 0:
		return
	case code >= 400 && w.reqBody != nil && w.reqBody.tripped:
		code = http.StatusRequestEntityTooLarge // the handler's error was the limit's
	}
	w.status = code
	w.decide()
	if v, why, _ := w.verdictFromHeader(); v != undecidedVerdict {
		w.commit(v, why)
	}
}

// Write holds the body back until the decision is taken, then compresses it
// or passes it through.
func (w *responseWriter) Write(p []byte) (int, error) {
	switch w.state {
	case identity:
		w.in += int64(len(p))
		return w.out.Write(p)
	case compressing:
		w.in += int64(len(p))
		if w.deferred {
			return w.holdDeferred(p)
		}
		return w.encode(p)
	case answered:
		w.in += int64(len(p))
		return len(p), nil // the handler wrote the body it was not asked for
	case hijacked:
		return 0, http.ErrHijacked
	case finished:
		return 0, errFinished
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
		if w.state != undecided {
			return w.Write(p)
		}
	}
	if w.buf == nil {
		w.buf = getBuffer()
	}
	if len(*w.buf)+len(p) <= w.s.bufferSize {
		*w.buf = append(*w.buf, p...)
		w.in += int64(len(p))
		return len(p), nil
	}
	// The body outgrew the buffer: it is long enough to compress, and it
	// streams from here on. Hold back enough of it to sniff its type.
	sniffed := 0
	if n := len(*w.buf); n < sniffLen {
		sniffed = min(len(p), sniffLen-n)
		*w.buf = append(*w.buf, p[:sniffed]...)
		w.in += int64(sniffed)
	}
	w.commit(w.verdictFromBody(false))
	n, err := w.Write(p[sniffed:])
	return sniffed + n, err
}

// sniffLen is how much of a body http.DetectContentType looks at.
const sniffLen = 512

// WriteString is Write without a conversion for the common held-back case.
func (w *responseWriter) WriteString(s string) (int, error) {
	if w.state == undecided && w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.state == undecided {
		if w.buf == nil {
			w.buf = getBuffer()
		}
		if len(*w.buf)+len(s) <= w.s.bufferSize {
			*w.buf = append(*w.buf, s...)
			w.in += int64(len(s))
			return len(s), nil
		}
	}
	switch w.state {
	case identity:
		w.in += int64(len(s))
		return io.WriteString(&w.out, s)
	case answered:
		w.in += int64(len(s))
		return len(s), nil
	}
	return w.Write([]byte(s))
}

// holdDeferred holds p back while the response's encoder is not chosen
// yet, a flush having sent the header before the first byte: the body is
// a stream of events if the handler flushes again before it outgrows the
// buffer (FlushError), a download, for the library's encoder at the
// level, if it outgrows it first, and a body known whole if the handler
// returns first (finish).
func (w *responseWriter) holdDeferred(p []byte) (int, error) {
	if w.buf == nil {
		w.buf = getBuffer()
	}
	if len(*w.buf)+len(p) <= w.s.bufferSize {
		*w.buf = append(*w.buf, p...)
		return len(p), nil
	}
	if err := w.startEncoder(false); err != nil {
		return 0, err
	}
	return w.encode(p)
}

// startEncoder takes the encoder of a response whose choice was deferred,
// the codec's stream Writer when stream and it has one, and passes it the
// held body.
func (w *responseWriter) startEncoder(stream bool) error {
	enc, err := w.takeEncoder(stream)
	if err != nil {
		return err
	}
	w.enc, w.deferred = enc, false
	if body := w.held(); len(body) > 0 {
		if _, err := w.encode(body); err != nil {
			return err
		}
	}
	w.dropBuffer()
	return nil
}

// takeEncoder takes an encoder writing to the response: the codec's stream
// Writer when stream and it has one for the level, else a pooled
// streaming encoder.
func (w *responseWriter) takeEncoder(stream bool) (Writer, error) {
	if stream {
		if enc := w.offer.pool.getStream(&w.out); enc != nil {
			w.streaming = true
			return enc, nil
		}
	}
	return w.offer.pool.get(&w.out)
}

// finishDeferred sends the body of a response whose encoder was never
// chosen, held whole, encoded in one shot; an empty one is the end of a
// stream alone, as from the encoder of a flushed stream.
func (w *responseWriter) finishDeferred() error {
	if len(w.held()) == 0 {
		if err := w.startEncoder(true); err != nil {
			return err
		}
		return w.closeEncoder()
	}
	out := getBuffer()
	defer putBuffer(out)
	start := w.startTimer()
	encoded, err := w.offer.pool.encode((*out)[:0], w.held())
	w.stopTimer(start)
	*out = encoded
	if err != nil {
		return err
	}
	_, err = w.out.Write(encoded)
	return err
}

// dropBuffer gives the held-back body's buffer back once its bytes are
// sent or in the encoder.
func (w *responseWriter) dropBuffer() {
	if w.buf != nil {
		putBuffer(w.buf)
		w.buf = nil
	}
}

func (w *responseWriter) encode(p []byte) (int, error) {
	if w.idle != nil {
		w.idle.mu.Lock()
		defer w.idle.mu.Unlock()
	}
	start := w.startTimer()
	n, err := w.enc.Write(p)
	w.stopTimer(start)
	return n, err
}

// flushEncoder flushes the encoder and, for a stream Writer that can
// release its state, (re)starts the idle timer.
func (w *responseWriter) flushEncoder() error {
	if w.idle != nil {
		w.idle.mu.Lock()
		defer w.idle.mu.Unlock()
	}
	if err := w.enc.Flush(); err != nil {
		return err
	}
	switch rel, ok := w.enc.(Releaser); {
	case !w.streaming || !ok || w.s.idleRelease < 0:
	case w.idle == nil:
		w.idle = newIdleRelease(rel, w.s.idleRelease)
	default:
		w.idle.flushed()
	}
	return nil
}

// startTimer and stopTimer add up time spent compressing, only when
// OnResponse will want it: reading the clock is not free.
func (w *responseWriter) startTimer() time.Time {
	if w.s.onResponse == nil {
		return time.Time{}
	}
	return time.Now()
}

func (w *responseWriter) stopTimer(start time.Time) {
	if !start.IsZero() {
		w.encTime += time.Since(start)
	}
}

// Flush sends what the handler wrote so far, through the encoder when
// compressing, and flushes the connection: server-sent events stream.
func (w *responseWriter) Flush() { _ = w.FlushError() }

// FlushError is Flush that reports failure; http.ResponseController calls it.
func (w *responseWriter) FlushError() error {
	if w.state == undecided {
		if w.status == 0 {
			w.WriteHeader(http.StatusOK)
		}
		if w.state == undecided {
			// A handler that flushes is streaming: compress if the type
			// allows it, however little was written so far.
			w.flushing = true
			w.commit(w.verdictFromBody(false))
			w.flushing = false
		}
	}
	// Before the first byte a flush sends the header alone: flushing the
	// encoder would send a coded nothing, which an empty stream's end
	// does not need.
	if w.state == compressing && w.in > 0 {
		if w.deferred {
			if err := w.startEncoder(true); err != nil {
				return err
			}
		}
		if err := w.flushEncoder(); err != nil {
			return err
		}
	}
	switch w.state {
	case hijacked:
		return http.ErrHijacked
	case finished:
		return errFinished
	}
	return flush(w.rw)
}

// flush flushes rw the way http.ResponseController would.
func flush(rw http.ResponseWriter) error {
	switch f := rw.(type) {
	case interface{ FlushError() error }:
		return f.FlushError()
	case http.Flusher:
		f.Flush()
		return nil
	}
	return http.NewResponseController(rw).Flush()
}

// errHijackCompressing is returned by Hijack once compressed bytes are on
// their way: the connection cannot change hands mid-stream.
var errHijackCompressing = errors.New("encoding: cannot hijack a response that is being compressed")

// Hijack hands the connection to the handler when nothing has been committed
// or the response passes through uncompressed.
func (w *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.state == finished {
		return nil, nil, errFinished
	}
	if w.state == compressing || w.state == undecided && w.buf != nil && len(*w.buf) > 0 {
		return nil, nil, errHijackCompressing
	}
	conn, brw, err := http.NewResponseController(w.rw).Hijack()
	if err == nil {
		w.state = hijacked
	}
	return conn, brw, err
}

// Unwrap returns the wrapped ResponseWriter, for http.ResponseController.
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.rw }

// Bypass makes the response that w is writing go out uncompressed, for a
// handler that knows its body mixes a secret with attacker-chosen text
// (BREACH) or is already compressed. It must be called before the first
// Write or WriteHeader; on a ResponseWriter that is not the middleware's
// (after any wrapping that implements Unwrap) it does nothing.
func Bypass(w http.ResponseWriter) {
	if x := middlewareWriter(w); x != nil {
		x.bypass = true
	}
}

// middlewareWriter returns the middleware's own writer within w, found
// through the Unwrap methods of any wrapping, or nil.
func middlewareWriter(w http.ResponseWriter) *responseWriter {
	for {
		switch x := w.(type) {
		case *responseWriter:
			return x
		case pushWriter:
			return x.responseWriter
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// finish ends the response after the handler returned.
func (w *responseWriter) finish() {
	if w.state == undecided && w.status == 0 && w.in == 0 && w.reqBody != nil && w.reqBody.tripped {
		http.Error(w, "413 request body too large", http.StatusRequestEntityTooLarge)
	}
	if w.state == undecided {
		if w.status == 0 && w.in == 0 && w.req.Method != http.MethodHead {
			// Nothing written: the server's own defaults apply, unless the
			// request's conditions answer the empty 200.
			w.state = identity
			w.skip = SkipTooSmall
			if w.bypass {
				w.skip = SkipBypassed
			}
			if w.cond != 0 {
				if code := w.precondition(passPlain); code != 0 {
					w.answer(w.Header(), code, passPlain)
				}
			}
		} else {
			if w.status == 0 {
				w.status = http.StatusOK
				w.decide()
			}
			w.commit(w.verdictFromBody(true))
		}
	}
	switch {
	case w.enc != nil:
		if err := w.closeEncoder(); err != nil {
			w.abort()
		}
	case w.deferred:
		if err := w.finishDeferred(); err != nil {
			w.abort()
		}
	}
	if w.s.onResponse != nil && w.state != hijacked {
		w.s.onResponse(w.req, w.stats())
	}
}

func (w *responseWriter) closeEncoder() error {
	if w.idle != nil {
		w.idle.mu.Lock()
		defer w.idle.mu.Unlock()
		w.idle.stop()
	}
	start := w.startTimer()
	err := w.enc.Close()
	w.stopTimer(start)
	w.putEncoder()
	return err
}

// putEncoder returns the encoder to the pool it came from.
func (w *responseWriter) putEncoder() {
	if w.streaming {
		w.offer.pool.putStream(w.enc)
	} else {
		w.offer.pool.put(w.enc)
	}
	w.enc = nil
}

// abort makes net/http drop the connection: a body whose encoder failed part
// way is not one a client may take as complete.
func (w *responseWriter) abort() {
	if w.out.err != nil {
		return // the client went away; nothing to tell it
	}
	panic(http.ErrAbortHandler)
}

// release returns everything pooled, on every path: a handler's panic
// included, when finish never ran.
func (w *responseWriter) release() {
	if w.enc != nil {
		if w.idle != nil {
			w.idle.mu.Lock()
			defer w.idle.mu.Unlock()
			w.idle.stop()
		}
		w.putEncoder()
	}
	if w.buf != nil {
		putBuffer(w.buf)
	}
	*w = responseWriter{rw: w.rw, state: finished, contentLength: w.contentLength}
}

// byteCount passes writes to w and counts them; it keeps the first error.
// w is the ResponseWriter itself, not an io.Writer, whose conversion would
// cost a type assertion per response.
type byteCount struct {
	w   http.ResponseWriter
	n   int64
	err error
}

func (c *byteCount) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
