package wsdeflate

import (
	"sync"
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
	ended sync.Once
}

// init sets the policy: after 0 means DefaultIdleRelease, a negative value
// never releases.
func (r *idleRelease) init(c *Conn, after time.Duration) {
	r.c = c
	if after == 0 {
		after = DefaultIdleRelease
	}
	if after < 0 {
		return
	}
	r.after, r.epoch = after, time.Now()
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
	r.release()
}

// release gives the live encoder and decoder back to the pools.
func (r *idleRelease) release() {
	c := r.c
	c.msgMu.Lock()
	c.comp.Release()
	c.msgMu.Unlock()
	c.dmu.Lock()
	c.decomp.Release()
	c.dmu.Unlock()
}

// stop cancels the timer.
func (r *idleRelease) stop() {
	if r.timer != nil {
		r.timer.Stop()
	}
}

// end is called when the connection has failed or closed: it carries no
// more messages, so its live encoder and decoder go back to the pools now
// instead of being dropped with it. The release runs on its own goroutine
// because the caller may hold the message lock it takes (a Write failing
// mid-message).
func (r *idleRelease) end() {
	r.stop()
	if r.c != nil {
		r.ended.Do(func() { go r.release() })
	}
}
