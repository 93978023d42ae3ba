package wsdeflate

import (
	"context"
	"net"
	"sync"
	"time"
)

// The pieces that keep one caller's deadline or a stuck frame from holding
// up the rest of a connection: deadlines that end with their call, a mutex
// that a waiter can give up on, and a socket that says when it closed.

// closeSignal is the connection's socket with a channel closed when it is,
// by whichever failure or handshake ends the connection: Ping stops
// waiting for a pong that can no longer come.
type closeSignal struct {
	net.Conn
	once sync.Once
	done chan struct{}
}

func (s *closeSignal) Close() error {
	s.once.Do(func() { close(s.done) })
	return s.Conn.Close()
}

// watchContext applies ctx to one read or write: its deadline becomes the
// connection's, and its cancellation interrupts the I/O by moving the
// deadline to now. The returned stop must be called when the I/O is done
// (more calls do nothing); see contextWatch.end.
func watchContext(ctx context.Context, set func(time.Time) error) (stop func() bool) {
	if ctx.Done() == nil {
		set(time.Time{}) // a context that never ends has no deadline
		return func() bool { return true }
	}
	w := newContextWatch(set)
	w.start(ctx)
	return w.end
}

// A contextWatch applies contexts to the I/O on one side of a socket, one
// I/O at a time, so that no deadline outlives the call it was given to: a
// connection keeps one for its frames, reused without allocating.
type contextWatch struct {
	set       func(time.Time) error
	interrupt func()         // moves the deadline to now; built once
	fired     sync.WaitGroup // counts an interrupt that may still run
	stopWatch func() bool    // nil when no context is being watched
}

func newContextWatch(set func(time.Time) error) *contextWatch {
	w := &contextWatch{set: set}
	w.interrupt = func() {
		w.set(time.Now())
		w.fired.Done()
	}
	return w
}

// start puts ctx's deadline on the socket and arranges for its
// cancellation to interrupt the I/O.
func (w *contextWatch) start(ctx context.Context) {
	dl, _ := ctx.Deadline()
	w.set(dl)
	if ctx.Done() != nil {
		w.fired.Add(1)
		w.stopWatch = context.AfterFunc(ctx, w.interrupt)
	}
}

// end is called when the I/O is done: it waits until the context can no
// longer move the deadline, clears the deadline, and reports whether the
// context left the I/O alone.
func (w *contextWatch) end() bool {
	if w.stopWatch == nil {
		return true
	}
	untouched := w.stopWatch()
	if untouched {
		w.fired.Done() // the interrupt will never run
	}
	w.fired.Wait()
	w.stopWatch = nil
	w.set(time.Time{})
	return untouched
}

// A ctxMutex is a mutex whose waiters can give up when their context
// ends: a channel with room for one token.
type ctxMutex chan struct{}

func newCtxMutex() ctxMutex { return make(ctxMutex, 1) }

// Lock waits for the mutex.
func (m ctxMutex) Lock() { m <- struct{}{} }

// Unlock releases the mutex.
func (m ctxMutex) Unlock() { <-m }

// TryLock takes the mutex if it is free.
func (m ctxMutex) TryLock() bool {
	select {
	case m <- struct{}{}:
		return true
	default:
		return false
	}
}

// lock waits for the mutex until ctx ends, and then returns ctx's error
// without it. A ctx that has already ended gets its error, not the mutex;
// one that ends just as the mutex frees may get either, so a caller for
// whom that matters checks ctx.Err once it holds the mutex.
func (m ctxMutex) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case m <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
