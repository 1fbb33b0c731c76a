package kernel

import (
	"context"

	"go.uber.org/zap"
)

// Waterfall is a key whose listeners wrap each other: the first listener is outermost and gets a
// next that runs the rest, then the caller's inner default. A listener that returns without
// calling next short-circuits everything after it. With no live listener the inner default runs.
//
//	// WriteIntent decides the guard of the next write. Mode: waterfall, single slot.
//	var WriteIntent = kernel.NewWaterfall[IntentArgs, *Intent]("fs/write-intent", kernel.SingleSlot())
type Waterfall[P, R any] struct {
	id     int64
	name   string
	single bool
	cache  keyCache[wfFn[P, R]]
}

type wfFn[P, R any] struct {
	wrap   func(context.Context, P, func() (R, error)) (R, error)
	decide func(context.Context, P) (R, error)
}

// NewWaterfall declares a waterfall key.
func NewWaterfall[P, R any](name string, opts ...KeyOption) *Waterfall[P, R] {
	var o keyOpts
	for _, opt := range opts {
		opt(&o)
	}
	return &Waterfall[P, R]{id: keySeq.Add(1), name: name, single: o.single}
}

// Name returns the waterfall's name.
func (w *Waterfall[P, R]) Name() string { return w.name }

// On registers a wrapping listener as an effect of kc.
func (w *Waterfall[P, R]) On(kc *Context, fn func(ctx context.Context, p P, next func() (R, error)) (R, error), opts ...ListenOption) (Disposer, error) {
	return listen(kc, w.id, w.name, &listener[wfFn[P, R]]{fn: wfFn[P, R]{wrap: fn}}, opts)
}

// Decide registers a listener that returns a decision and never calls next. On a SingleSlot
// waterfall a second live decider is logged as a warning naming the winner and the shadowed one.
func (w *Waterfall[P, R]) Decide(kc *Context, fn func(ctx context.Context, p P) (R, error), opts ...ListenOption) (Disposer, error) {
	d, err := listen(kc, w.id, w.name, &listener[wfFn[P, R]]{fn: wfFn[P, R]{decide: fn}, decider: true}, opts)
	if err == nil && w.single {
		w.checkSlot(kc)
	}
	return d, err
}

func (w *Waterfall[P, R]) checkSlot(kc *Context) {
	var deciders []string
	for _, l := range lookup[wfFn[P, R]](kc.k, w.id).snapshot() {
		if l.decider && l.kc.alive.Load() {
			deciders = append(deciders, l.kc.f.String())
		}
	}
	if len(deciders) > 1 {
		kc.k.log.Warn("single-slot waterfall has more than one decider; the first wins",
			zap.String("event", w.name), zap.String("winner", deciders[0]), zap.Strings("shadowed", deciders[1:]))
	}
}

// Listeners returns how many live listeners the waterfall has in kc's kernel.
func (w *Waterfall[P, R]) Listeners(kc *Context) int { return count[wfFn[P, R]](kc, w.id) }

// ListenersExcept is Listeners without the listeners registered with Tag(tag).
func (w *Waterfall[P, R]) ListenersExcept(kc *Context, tag string) int {
	return countExcept[wfFn[P, R]](kc, w.id, tag)
}

// Run dispatches p. inner is the default at the bottom of the chain; nil means the zero R.
// Errors travel back up through next, so an outer listener may translate them.
func (w *Waterfall[P, R]) Run(ctx context.Context, kc *Context, p P, inner func() (R, error)) (R, error) {
	t := w.cache.get(kc.k, w.id)
	if t == nil {
		return runInner(inner)
	}
	if h := kc.hold.Load(); h != nil {
		return w.within(h, ctx, t.snapshot(), p, inner)
	}
	return w.step(ctx, t.snapshot(), 0, p, inner)
}

// within runs a dispatch inside the lifecycle change h (see enterAll).
func (w *Waterfall[P, R]) within(h *hold, ctx context.Context, ls []*listener[wfFn[P, R]], p P, inner func() (R, error)) (R, error) {
	enterAll(h, ls)
	defer leaveAll(ls)
	return w.step(ctx, ls, 0, p, inner)
}

func (w *Waterfall[P, R]) step(ctx context.Context, ls []*listener[wfFn[P, R]], i int, p P, inner func() (R, error)) (R, error) {
	for ; i < len(ls); i++ {
		l := ls[i]
		if !l.live() {
			continue
		}
		if l.fn.decide != nil {
			return w.decide(l, ctx, p)
		}
		return w.wrap(l, ctx, p, w.next(ctx, ls, i+1, p, inner))
	}
	return runInner(inner)
}

func (w *Waterfall[P, R]) next(ctx context.Context, ls []*listener[wfFn[P, R]], i int, p P, inner func() (R, error)) func() (R, error) {
	return func() (R, error) { return w.step(ctx, ls, i, p, inner) }
}

func (w *Waterfall[P, R]) decide(l *listener[wfFn[P, R]], ctx context.Context, p P) (r R, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered("waterfall "+w.name, v)
		}
	}()
	return l.fn.decide(ctx, p)
}

func (w *Waterfall[P, R]) wrap(l *listener[wfFn[P, R]], ctx context.Context, p P, next func() (R, error)) (r R, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered("waterfall "+w.name, v)
		}
	}()
	return l.fn.wrap(ctx, p, next)
}

func runInner[R any](inner func() (R, error)) (R, error) {
	if inner == nil {
		var zero R
		return zero, nil
	}
	return inner()
}
