package mcpstdio

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// inlineFor is how long a direct call runs on the reading goroutine before a goroutine of its own
// takes over the reading (runInline): the watch hands it over once it sees the call running at two
// of its ticks in a row, between inlineFor/2 and inlineFor after the call started.
const inlineFor = 2 * time.Millisecond

// inlineCall is a direct call running on the reading goroutine.
type inlineCall struct {
	state atomic.Int32 // 0 running, 1 returned on the reading goroutine, 2 handed over to a new reader
}

// inlineWatch hands the reading over from an inline call that runs long: one goroutine per
// connection (watchInline) ticks every inlineFor/2 while calls run inline and parks once a whole
// tick saw none start. A burst of short calls thus arms no timer per call: a timer armed per call
// woke an idle thread into the poller for each (about a tenth of a short read's CPU).
type inlineWatch struct {
	running atomic.Pointer[inlineCall] // the call running inline, nil when none
	started atomic.Uint64              // inline calls started
	parked  atomic.Bool
	wake    chan struct{} // buffered: a call started while the watch was parked
	once    sync.Once
}

// runInline runs a direct call on the reading goroutine and returns true, to read on; when the call
// is still running after inlineFor, a new goroutine reads on (so a cancellation or another call is
// read while it runs) and runInline returns false. A call that returns sooner costs no goroutine
// and no thread woken for one: with an idle processor, starting a goroutine wakes a thread that
// finds nothing to do and sleeps again, a third of a short call's CPU (docs/host.md).
func (c *conn) runInline(ctx context.Context, cl *call, run func(context.Context) ([]byte, int, error)) bool {
	w := &c.watch
	w.once.Do(func() {
		w.wake = make(chan struct{}, 1)
		go c.watchInline()
	})
	ic := &inlineCall{}
	w.started.Add(1)
	w.running.Store(ic)
	if w.parked.Load() {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	c.runDirect(ctx, cl, run)
	w.running.CompareAndSwap(ic, nil)
	return ic.state.CompareAndSwap(0, 1)
}

// watchInline is the connection's watch (inlineWatch), until the connection closes.
func (c *conn) watchInline() {
	w := &c.watch
	t := time.NewTimer(inlineFor / 2)
	defer t.Stop()
	var seen *inlineCall // the call running at the last tick
	last := w.started.Load()
	for {
		select {
		case <-t.C:
		case <-c.done:
			return
		}
		cur := w.running.Load()
		if cur != nil && cur == seen && cur.state.CompareAndSwap(0, 2) {
			go func() {
				if c.handover != nil {
					c.handover()
				}
				c.readLoop(c.reader)
			}()
			cur = nil
		}
		seen = cur
		if n := w.started.Load(); cur == nil && n == last {
			// A tick without a call: park until one starts. The call stores itself before it
			// looks at parked, and the watch sets parked before it looks at the call again, so
			// one of them sees the other.
			w.parked.Store(true)
			if w.running.Load() == nil {
				select {
				case <-w.wake:
				case <-c.done:
					return
				}
			}
			w.parked.Store(false)
			seen = nil
		}
		last = w.started.Load()
		t.Reset(inlineFor / 2)
	}
}
