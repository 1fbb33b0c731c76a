package kernel

import (
	"context"
	"errors"
	"sync"
)

// Bail is a key whose listeners run in order until one reports handled=true or fails; it covers
// Cordis's bail and serial modes.
type Bail[P, R any] struct {
	id   int64
	name string
}

type bailFn[P, R any] = func(context.Context, P) (R, bool, error)

// NewBail declares a bail key.
func NewBail[P, R any](name string) *Bail[P, R] { return &Bail[P, R]{id: keySeq.Add(1), name: name} }

// Name returns the key's name.
func (b *Bail[P, R]) Name() string { return b.name }

// On registers fn as an effect of kc.
func (b *Bail[P, R]) On(kc *Context, fn func(ctx context.Context, p P) (R, bool, error), opts ...ListenOption) (Disposer, error) {
	return listen(kc, b.id, b.name, &listener[bailFn[P, R]]{fn: fn}, opts)
}

// Run returns the first handled result; handled is false when no listener handled p.
func (b *Bail[P, R]) Run(ctx context.Context, kc *Context, p P) (R, bool, error) {
	var zero R
	t := lookup[bailFn[P, R]](kc.k, b.id)
	if t == nil {
		return zero, false, nil
	}
	if h := kc.hold.Load(); h != nil {
		return b.within(h, ctx, t.snapshot(), p)
	}
	for _, l := range t.snapshot() {
		if !l.live() {
			continue
		}
		r, ok, err := b.call(l, ctx, p)
		if err != nil || ok {
			return r, ok, err
		}
	}
	return zero, false, nil
}

// within is Run inside the lifecycle change h (see enterAll).
func (b *Bail[P, R]) within(h *hold, ctx context.Context, ls []*listener[bailFn[P, R]], p P) (r R, ok bool, err error) {
	enterAll(h, ls)
	defer leaveAll(ls)
	for _, l := range ls {
		if l.live() {
			if r, ok, err = b.call(l, ctx, p); err != nil || ok {
				return r, ok, err
			}
		}
	}
	var zero R
	return zero, false, nil
}

func (b *Bail[P, R]) call(l *listener[bailFn[P, R]], ctx context.Context, p P) (r R, ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered("bail "+b.name, v)
		}
	}()
	return l.fn(ctx, p)
}

// Parallel is a key whose listeners all run concurrently; Run waits for every one and joins
// their errors.
type Parallel[P any] struct {
	id   int64
	name string
}

// NewParallel declares a parallel key.
func NewParallel[P any](name string) *Parallel[P] {
	return &Parallel[P]{id: keySeq.Add(1), name: name}
}

// Name returns the key's name.
func (q *Parallel[P]) Name() string { return q.name }

// On registers fn as an effect of kc.
func (q *Parallel[P]) On(kc *Context, fn func(ctx context.Context, p P) error, opts ...ListenOption) (Disposer, error) {
	return listen(kc, q.id, q.name, &listener[emitFn[P]]{fn: fn}, opts)
}

// Run starts every live listener on its own goroutine and waits for all of them.
func (q *Parallel[P]) Run(ctx context.Context, kc *Context, p P) error {
	t := lookup[emitFn[P]](kc.k, q.id)
	if t == nil {
		return nil
	}
	ls := t.snapshot()
	if h := kc.hold.Load(); h != nil {
		enterAll(h, ls)
		defer leaveAll(ls)
	}
	errs := make([]error, len(ls))
	var wg sync.WaitGroup
	for i, l := range ls {
		if !l.live() {
			continue
		}
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					errs[i] = recovered("parallel "+q.name, v)
				}
			}()
			errs[i] = l.fn(ctx, p)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
