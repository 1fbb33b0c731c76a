package kernel

import (
	"context"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// DefaultAsyncQueue is how many events an Async listener's queue holds unless AsyncQueue says
// otherwise.
const DefaultAsyncQueue = 1024

// AsyncQueue sets the size of an Async listener's queue; n < 1 means DefaultAsyncQueue. An event
// emitted while the queue is full is dropped (docs/kernel.md "Asynchronous listeners").
func AsyncQueue(n int) ListenOption { return func(o *listenOpts) { o.queue = n } }

// AsyncDropped returns how many events the kernel's Async listeners have dropped because their
// queue was full, since the kernel was made.
func (k *Kernel) AsyncDropped() uint64 { return k.asyncDropped.Load() }

// pending counts what Kernel.Close waits for: events queued and not yet handled, and stopped
// queues whose goroutine has not exited.
type pending struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0
}

func (c *pending) add(d int) {
	c.mu.Lock()
	if c.n == 0 && d > 0 {
		c.idle = make(chan struct{})
	}
	c.n += d
	if c.n == 0 && d < 0 {
		close(c.idle)
	}
	c.mu.Unlock()
}

// wait returns when nothing is pending, or with ctx's error.
func (c *pending) wait(ctx context.Context) error {
	c.mu.Lock()
	if c.n == 0 {
		c.mu.Unlock()
		return nil
	}
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// asyncQueue is one Async listener's ordered, bounded queue and the goroutine that drains it.
// EventBus delivers to put synchronously, under its own lock, and put never blocks: the emitter
// pays for a channel send, never for the listener.
type asyncQueue[P any] struct {
	e       *Event[P]
	l       *listener[emitFn[P]]
	ch      chan asyncMsg[P]
	k       *Kernel
	stopped atomic.Bool
	dropped atomic.Uint64
}

func newAsyncQueue[P any](e *Event[P], l *listener[emitFn[P]], k *Kernel, size int) *asyncQueue[P] {
	if size < 1 {
		size = DefaultAsyncQueue
	}
	q := &asyncQueue[P]{e: e, l: l, ch: make(chan asyncMsg[P], size), k: k}
	go q.run()
	return q
}

// put queues m, or drops it when the queue is full. It runs on the emitter's goroutine.
func (q *asyncQueue[P]) put(m asyncMsg[P]) {
	q.k.async.add(1)
	select {
	case q.ch <- m:
	default:
		q.k.async.add(-1)
		q.k.asyncDropped.Add(1)
		if n := q.dropped.Add(1); warnAt(n) {
			q.l.kc.log.Warn("async listener queue full: event dropped",
				zap.String("event", q.e.name), zap.Int("queue", cap(q.ch)), zap.Uint64("dropped", n))
		}
	}
}

// warnAt reports whether the n-th drop is logged: the 1st, 10th, 100th, ...
func warnAt(n uint64) bool {
	for n%10 == 0 {
		n /= 10
	}
	return n == 1
}

// run delivers the queued events in order until stop; what is still queued then is discarded.
func (q *asyncQueue[P]) run() {
	discarded := 0
	for m := range q.ch {
		if q.stopped.Load() || !q.l.kc.alive.Load() {
			discarded++
		} else if err := q.e.call(q.l, m.ctx, m.p); err != nil {
			q.l.kc.log.Warn("async listener failed", zap.String("event", q.e.name), zap.Error(err))
		}
		q.k.async.add(-1)
	}
	if discarded > 0 {
		q.l.kc.log.Info("async listener removed: undelivered events discarded",
			zap.String("event", q.e.name), zap.Int("discarded", discarded))
	}
	q.k.async.add(-1) // the stop
}

// stop ends the queue once unsubscribe has returned (after which EventBus runs no put): the
// delivery in progress finishes, the rest is discarded, and the goroutine exits.
func (q *asyncQueue[P]) stop(unsubscribe func() error) error {
	err := unsubscribe()
	q.stopped.Store(true)
	q.k.async.add(1)
	close(q.ch)
	return err
}
