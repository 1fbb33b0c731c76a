package kernel

import (
	"context"
	"errors"
	"strconv"

	"go.uber.org/zap"
)

// Event is an emit-mode key: every live listener runs, in order, and their errors are joined.
//
//	// Observed is emitted after a file was read or written. Mode: emit.
//	var Observed = kernel.NewEvent[ObservedArgs]("fs/observed")
type Event[P any] struct {
	id    int64
	name  string
	cache keyCache[emitFn[P]]
}

type emitFn[P any] = func(context.Context, P) error

type asyncMsg[P any] struct {
	ctx context.Context
	p   P
}

// NewEvent declares an emit-mode event.
func NewEvent[P any](name string) *Event[P] { return &Event[P]{id: keySeq.Add(1), name: name} }

// Name returns the event name.
func (e *Event[P]) Name() string { return e.name }

// On registers fn as an effect of kc. With Async, fn runs on another goroutine.
func (e *Event[P]) On(kc *Context, fn func(ctx context.Context, p P) error, opts ...ListenOption) (Disposer, error) {
	var o listenOpts
	for _, opt := range opts {
		opt(&o)
	}
	if !o.async {
		return listen(kc, e.id, e.name, &listener[emitFn[P]]{fn: fn}, opts)
	}
	return e.onAsync(kc, fn, opts)
}

// Listeners returns how many live listeners the event has in kc's kernel.
func (e *Event[P]) Listeners(kc *Context) int { return count[emitFn[P]](kc, e.id) }

// ListenersExcept is Listeners without the listeners registered with Tag(tag).
func (e *Event[P]) ListenersExcept(kc *Context, tag string) int {
	return countExcept[emitFn[P]](kc, e.id, tag)
}

// Emit runs every live listener in order with no kernel lock held. A listener's error or panic
// (as *PanicError) does not stop the others; the errors are joined.
func (e *Event[P]) Emit(ctx context.Context, kc *Context, p P) error {
	var errs []error
	e.dispatch(ctx, kc, p, func(_ *listener[emitFn[P]], err error) { errs = append(errs, err) })
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// EmitContained is Emit for observers that must neither fail nor change the emitter's work:
// errors and panics are logged at Warn on the listener's logger and never returned.
func (e *Event[P]) EmitContained(ctx context.Context, kc *Context, p P) {
	e.dispatch(ctx, kc, p, func(l *listener[emitFn[P]], err error) {
		l.kc.log.Warn("listener failed", zap.String("event", e.name), zap.Error(err))
	})
}

// dispatch runs the live listeners in order, handing each failure to fail.
func (e *Event[P]) dispatch(ctx context.Context, kc *Context, p P, fail func(*listener[emitFn[P]], error)) {
	t := e.cache.get(kc.k, e.id)
	if t == nil {
		return
	}
	if h := kc.hold.Load(); h != nil {
		e.within(h, ctx, kc, t.snapshot(), p, fail)
		return
	}
	for _, l := range t.snapshot() { // deliver, inlined: this is the hot path
		if !l.live() {
			continue
		}
		if l.topic != "" {
			kc.k.bus.Publish(l.topic, asyncMsg[P]{ctx: context.WithoutCancel(ctx), p: p})
			continue
		}
		if err := e.call(l, ctx, p); err != nil {
			fail(l, err)
		}
	}
}

// within runs a dispatch inside the lifecycle change h (see enterAll).
func (e *Event[P]) within(h *hold, ctx context.Context, kc *Context, ls []*listener[emitFn[P]], p P, fail func(*listener[emitFn[P]], error)) {
	enterAll(h, ls)
	defer leaveAll(ls)
	for _, l := range ls {
		e.deliver(ctx, kc, l, p, fail)
	}
}

// deliver hands p to l if it is live: through EventBus for an async listener, by a call otherwise.
func (e *Event[P]) deliver(ctx context.Context, kc *Context, l *listener[emitFn[P]], p P, fail func(*listener[emitFn[P]], error)) {
	if !l.live() {
		return
	}
	if l.topic != "" {
		kc.k.bus.Publish(l.topic, asyncMsg[P]{ctx: context.WithoutCancel(ctx), p: p})
		return
	}
	if err := e.call(l, ctx, p); err != nil {
		fail(l, err)
	}
}

func (e *Event[P]) call(l *listener[emitFn[P]], ctx context.Context, p P) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recovered("event "+e.name, r)
		}
	}()
	return l.fn(ctx, p)
}

// onAsync registers fn behind its own queue (asyncQueue): the listener's EventBus topic has one
// synchronous handler, which only queues the event, so a publish never waits for the listener.
func (e *Event[P]) onAsync(kc *Context, fn func(context.Context, P) error, opts []ListenOption) (Disposer, error) {
	var o listenOpts
	for _, opt := range opts {
		opt(&o)
	}
	l := &listener[emitFn[P]]{fn: fn, kc: kc}
	l.topic = e.name + "#" + strconv.FormatInt(kc.k.listenerSeq.Add(1), 10)
	q := newAsyncQueue(e, l, kc.k, o.queue)
	handler := q.put
	unsubscribe := func() error { return kc.k.bus.Unsubscribe(l.topic, handler) }
	if err := kc.k.bus.Subscribe(l.topic, handler); err != nil {
		return nil, errors.Join(err, q.stop(func() error { return nil }))
	}
	stop, err := kc.addEffect("async "+e.name, func() error { return q.stop(unsubscribe) })
	if err != nil {
		return nil, errors.Join(err, q.stop(unsubscribe))
	}
	d, err := listen(kc, e.id, e.name, l, opts)
	if err != nil {
		return nil, errors.Join(err, kc.disposer(stop)())
	}
	stopQueue := kc.disposer(stop)
	return func() error { return errors.Join(d(), stopQueue()) }, nil
}
