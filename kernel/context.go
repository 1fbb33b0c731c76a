package kernel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// StopTimeout bounds the context handed to each OnDispose hook.
const StopTimeout = 15 * time.Second

// Context is one load of a plugin instance: everything registered through it is an effect of
// that load and is undone, in reverse order, when the load ends. Callers name it kc to keep it
// apart from context.Context.
type Context struct {
	k      *Kernel
	f      *Fiber
	log    *zap.Logger
	ctx    context.Context
	cancel context.CancelFunc
	alive  atomic.Bool

	// hold marks the context while the lifecycle change in progress runs its code; see lock.go.
	hold   atomic.Pointer[hold]
	holdMu sync.Mutex
	holds  int

	mu      sync.Mutex
	effects []*effect
	done    int
}

type effect struct {
	label string
	fn    func() error
	done  atomic.Bool
}

func newContext(f *Fiber) *Context {
	ctx, cancel := context.WithCancel(context.Background())
	kc := &Context{k: f.k, f: f, log: f.log, ctx: ctx, cancel: cancel}
	kc.alive.Store(true)
	return kc
}

// Kernel returns the kernel the context belongs to.
func (kc *Context) Kernel() *Kernel { return kc.k }

// Fiber returns the plugin instance the context belongs to.
func (kc *Context) Fiber() *Fiber { return kc.f }

// Logger returns the instance's logger, named after its module.
func (kc *Context) Logger() *zap.Logger { return kc.log }

// Context returns a context.Context that is cancelled when this load ends, for goroutines the
// plugin starts.
func (kc *Context) Context() context.Context { return kc.ctx }

// Active reports whether registrations through kc are still accepted.
func (kc *Context) Active() bool { return kc.alive.Load() }

// OnDispose registers fn to run when this load ends, after every effect registered later.
func (kc *Context) OnDispose(fn func(context.Context) error) error {
	_, err := kc.addEffect("dispose", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), StopTimeout)
		defer cancel()
		return fn(ctx)
	})
	return err
}

// Effect runs fn now and registers the disposer it returns as an effect of this load. The
// returned Disposer undoes it early.
func (kc *Context) Effect(label string, fn func() (Disposer, error)) (Disposer, error) {
	if !kc.alive.Load() {
		return nil, ErrInactive
	}
	d, err := fn()
	if err != nil {
		return nil, err
	}
	if d == nil {
		d = func() error { return nil }
	}
	e, err := kc.addEffect(label, d)
	if err != nil {
		return nil, errors.Join(err, d())
	}
	return kc.disposer(e), nil
}

// Load starts a child plugin instance owned by this load: it is disposed with it. cfg may be nil
// (the module's defaults), C or *C. A module whose services are missing is returned Pending with
// a nil error; a failed Apply returns the Failed fiber and its error.
func (kc *Context) Load(m Module, cfg any, opts ...LoadOption) (*Fiber, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	k := kc.k
	k.life.lock(kc)
	defer k.life.unlock()
	if !kc.alive.Load() {
		return nil, ErrInactive
	}
	f := &Fiber{k: k, id: k.fiberSeq.Add(1), parent: kc, mod: m, cfg: cfg, rank: 1<<30 + int(k.fiberSeq.Load())}
	if kc.f != k.root {
		f.rank = kc.f.rank
	}
	for _, o := range opts {
		o(f)
	}
	if f.cfg == nil && m.NewConfig != nil {
		f.cfg = m.NewConfig()
	}
	f.log = kc.k.log.Named(m.ID).With(zap.Uint64("fiber", f.id))
	if f.entry != "" {
		f.log = f.log.With(zap.String("entry", f.entry))
	}
	e, err := kc.addEffect("plugin "+m.ID, f.Dispose)
	if err != nil {
		return nil, err
	}
	f.self = e
	k.addFiber(f)
	if missing := f.missing(); missing != nil {
		f.setState(Pending)
		f.log.Debug("waiting for services", zap.Strings("missing", missing))
		return f, nil
	}
	return f, f.load()
}

func (kc *Context) addEffect(label string, fn func() error) (*effect, error) {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	if !kc.alive.Load() {
		return nil, ErrInactive
	}
	e := &effect{label: label, fn: fn}
	kc.effects = append(kc.effects, e)
	return e, nil
}

func (kc *Context) disposer(e *effect) Disposer {
	return func() error {
		if !e.done.CompareAndSwap(false, true) {
			return nil
		}
		kc.forget(e)
		return kc.run(e)
	}
}

// forget drops a finished effect from the list, compacting now and then.
func (kc *Context) forget(e *effect) {
	e.done.Store(true)
	kc.mu.Lock()
	defer kc.mu.Unlock()
	kc.done++
	if kc.done > 16 && kc.done*2 > len(kc.effects) {
		live := kc.effects[:0]
		for _, x := range kc.effects {
			if !x.done.Load() {
				live = append(live, x)
			}
		}
		clear(kc.effects[len(live):])
		kc.effects = live
		kc.done = 0
	}
}

func (kc *Context) run(e *effect) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recovered("dispose "+kc.f.mod.ID+": "+e.label, r)
		}
	}()
	return e.fn()
}

// close ends the load: no new effects are accepted, the context is cancelled, and every effect
// runs in reverse registration order, each exactly once; errors are joined. It runs inside a
// lifecycle change; the effects run as plugin code of kc.
func (kc *Context) close() error {
	kc.mu.Lock()
	kc.alive.Store(false)
	list := kc.effects
	kc.effects = nil
	kc.mu.Unlock()
	kc.cancel()
	var errs []error
	kc.k.life.callout(kc, func() {
		for i := len(list) - 1; i >= 0; i-- {
			e := list[i]
			if !e.done.CompareAndSwap(false, true) {
				continue
			}
			if err := kc.run(e); err != nil {
				errs = append(errs, err)
			}
		}
	})
	return errors.Join(errs...)
}
