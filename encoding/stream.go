package encoding

import (
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Streamer is an optional interface of a Codec with a second streaming
// encoder, for responses that flush as they go: server-sent events, a
// streamed answer, any handler that calls Flush before its body outgrows
// Config.BufferSize. A server holds many such responses open at once, so
// their encoders' state must be small: the Writers NewStreamWriter returns
// keep a bounded window and tables, and implement Releaser, which the
// middleware calls when a stream has gone Config.IdleRelease without a
// flush. With the built-in codecs an open stream, everything of its
// response counted, keeps at most 256 KiB while it flushes and 64 KiB once
// released (TestStreamMemoryBounds enforces both). A flush before the
// first byte sends the header and leaves the choice to what follows: the
// stream Writer if the handler flushes again before the body outgrows the
// buffer, NewWriter's if it outgrows it first (a download). Responses
// padded for Config.Jitter stream through NewWriter's Writers, whose
// padding needs them, and keep what those keep. The built-in codecs implement it up to their default
// level; a Codec that wraps one keeps it by forwarding NewStreamWriter.
type Streamer interface {
	// NewStreamWriter returns a Writer for a flushed stream to w at level,
	// or nil and no error when level is one the codec leaves to NewWriter.
	NewStreamWriter(w io.Writer, level int) (Writer, error)
}

// Releaser is implemented by a Writer that can give back its live state
// (match tables, block buffers) while its stream waits, keeping only what
// the stream's next bytes need: recent history and the coding's running
// state. Release is called only right after a Flush, with nothing pending;
// the next Write takes live state again.
type Releaser interface {
	Release()
}

// DefaultIdleRelease is how long a flushed stream goes without a write
// before its encoder gives its live state back (see Config.IdleRelease),
// the same as wsdeflate's for an idle WebSocket connection.
const DefaultIdleRelease = time.Second

// streamHistory is how much of a released stream's recent input its
// encoder keeps to refer back to: an event usually repeats the events just
// before it. Re-seeding an encoder costs about one compression of the
// history, once per release.
const streamHistory = 8 << 10

// idleRelease gives a flushed stream's live encoder state back once the
// stream has gone after without a flush. It is a runtime timer, not a
// goroutine: it re-arms itself while the stream flushes and stops once it
// has released. mu guards the encoder: the handler's goroutine holds it
// for every Write, Flush and Close, the timer's for Release.
type idleRelease struct {
	mu    sync.Mutex
	rel   Releaser // nil once the stream has ended
	after time.Duration
	epoch time.Time
	last  atomic.Int64 // nanoseconds from epoch to the last flush
	armed atomic.Bool
	timer *time.Timer
}

// newIdleRelease starts the release timer of the stream rel encodes.
func newIdleRelease(rel Releaser, after time.Duration) *idleRelease {
	r := &idleRelease{rel: rel, after: after, epoch: time.Now()}
	r.armed.Store(true)
	r.timer = time.AfterFunc(after, r.fire)
	return r
}

// flushed records a flush, re-arming the timer if it had released.
func (r *idleRelease) flushed() {
	r.last.Store(int64(time.Since(r.epoch)))
	if !r.armed.Swap(true) {
		r.timer.Reset(r.after)
	}
}

func (r *idleRelease) fire() {
	if idle := time.Since(r.epoch) - time.Duration(r.last.Load()); idle < r.after {
		r.timer.Reset(r.after - idle)
		return
	}
	r.armed.Store(false)
	r.mu.Lock()
	if r.rel != nil {
		r.rel.Release()
	}
	r.mu.Unlock()
}

// stop ends the timer for good; the caller holds mu, so a release under
// way has finished and none starts after it.
func (r *idleRelease) stop() {
	r.timer.Stop()
	r.rel = nil
}
