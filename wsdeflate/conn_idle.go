package wsdeflate

import (
	"sync"
	"sync/atomic"
	"time"
)

// idleRelease gives a connection's live encoder and decoder back to the
// shared pools, and drops its message buffers, once no message has gone
// either way for a while, so that an idle connection keeps only its
// windows however large its past messages were (see the package
// documentation). It is a runtime timer, not a goroutine: it re-arms itself
// while messages flow and stops once it has released.
type idleRelease struct {
	c         *Conn
	after     time.Duration
	keepCodec bool         // IdleRelease < 0: only the buffers go
	last      atomic.Int64 // monotonic nanoseconds of the last message
	armed     atomic.Bool
	timer     *time.Timer
	epoch     time.Time
	ended     sync.Once
}

// init sets the policy: after 0 means DefaultIdleRelease; a negative value
// keeps the encoder and decoder, but still drops the buffers after
// DefaultIdleRelease.
func (r *idleRelease) init(c *Conn, after time.Duration) {
	r.c = c
	switch {
	case after == 0:
		after = DefaultIdleRelease
	case after < 0:
		after, r.keepCodec = DefaultIdleRelease, true
	}
	r.after, r.epoch = after, time.Now()
	r.armed.Store(true)
	r.timer = time.AfterFunc(after, r.fire)
}

// touch records a message; it re-arms the timer if it had released.
func (r *idleRelease) touch() {
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
	r.release(!r.keepCodec)
}

// release drops the message buffers and, if codec is set, gives the live
// encoder and decoder back to the pools. It waits for a message in
// progress, which holds the locks.
func (r *idleRelease) release(codec bool) {
	c := r.c
	c.msgMu.Lock()
	if codec && c.comp != nil {
		c.comp.Release()
	}
	c.wbuf = nil
	c.msgMu.Unlock()
	c.dmu.Lock()
	if codec && c.decomp != nil {
		c.decomp.Release()
	}
	c.rbuf, c.mbuf = nil, nil
	c.dmu.Unlock()
}

// end is called when the connection has failed or closed: it carries no
// more messages, so its live encoder and decoder go back to the pools now
// instead of being dropped with it. The release runs on its own goroutine
// because the caller may hold the message lock it takes (a Write failing
// mid-message).
func (r *idleRelease) end() {
	if r.c == nil {
		return
	}
	r.timer.Stop()
	r.ended.Do(func() { go r.release(true) })
}
