package wsdeflate

import (
	"sync/atomic"
	"time"
)

// idleRelease gives a connection's live encoder and decoder back to the
// shared pools once no message has gone either way for a while, so that an
// idle connection keeps only its windows (see the package documentation).
// It is a runtime timer, not a goroutine: it re-arms itself while messages
// flow and stops once it has released.
type idleRelease struct {
	c     *Conn
	after time.Duration
	last  atomic.Int64 // monotonic nanoseconds of the last message
	armed atomic.Bool
	timer *time.Timer
	epoch time.Time
}

// init sets the policy: after 0 means DefaultIdleRelease, a negative value
// never releases.
func (r *idleRelease) init(c *Conn, after time.Duration) {
	if after == 0 {
		after = DefaultIdleRelease
	}
	if after < 0 {
		return
	}
	r.c, r.after, r.epoch = c, after, time.Now()
	r.armed.Store(true)
	r.timer = time.AfterFunc(after, r.fire)
}

// touch records a message; it re-arms the timer if it had released.
func (r *idleRelease) touch() {
	if r.timer == nil {
		return
	}
	r.last.Store(int64(time.Since(r.epoch)))
	if !r.armed.Swap(true) {
		r.timer.Reset(r.after)
	}
}

func (r *idleRelease) fire() {
	idle := time.Since(r.epoch) - time.Duration(r.last.Load())
	if idle < r.after {
		r.timer.Reset(r.after - idle)
		return
	}
	r.armed.Store(false)
	c := r.c
	c.msgMu.Lock()
	c.comp.Release()
	c.msgMu.Unlock()
	c.dmu.Lock()
	c.decomp.Release()
	c.dmu.Unlock()
}

// stop cancels the timer when the connection ends.
func (r *idleRelease) stop() {
	if r.timer != nil {
		r.timer.Stop()
	}
}
