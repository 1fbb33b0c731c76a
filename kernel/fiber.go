package kernel

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// State is the lifecycle state of a plugin instance.
type State int32

// The states of a Fiber. A fiber whose dependencies are missing is Pending; Apply runs while it is
// Loading; a failed Apply leaves it Failed with its effects rolled back.
const (
	Pending State = iota
	Loading
	Active
	Failed
	Unloading
	Disposed
)

func (s State) String() string {
	switch s {
	case Pending:
		return "pending"
	case Loading:
		return "loading"
	case Active:
		return "active"
	case Failed:
		return "failed"
	case Unloading:
		return "unloading"
	case Disposed:
		return "disposed"
	}
	return fmt.Sprintf("state(%d)", int32(s))
}

// Fiber is one instance of a module: its state, its config and, while loaded, the effects its
// Apply registered.
type Fiber struct {
	k      *Kernel
	id     uint64
	parent *Context
	mod    Module
	rank   int
	entry  string
	log    *zap.Logger

	state atomic.Int32
	ctx   atomic.Pointer[Context]
	self  *effect // the effect in the parent that disposes this fiber

	mu  sync.Mutex
	cfg any
	err error
}

// LoadOption tunes Context.Load.
type LoadOption func(*Fiber)

// Rank sets the instance's place in the composition. Listener order follows rank before
// registration order, so an instance that reloads keeps its place. The loader passes ranks that
// grow with the entry's position (spaced, non-negative, below 1<<30); programmatic loads without
// Rank are placed after every ranked entry, in call order.
func Rank(n int) LoadOption { return func(f *Fiber) { f.rank = n } }

// EntryID names the composition entry the instance belongs to, for logs and diagnostics.
func EntryID(id string) LoadOption { return func(f *Fiber) { f.entry = id } }

// ID returns the instance's kernel-unique number.
func (f *Fiber) ID() uint64 { return f.id }

// Module returns the module the instance was loaded from.
func (f *Fiber) Module() Module { return f.mod }

// Entry returns the composition entry id given with EntryID, or "".
func (f *Fiber) Entry() string { return f.entry }

// State returns the current lifecycle state.
func (f *Fiber) State() State { return State(f.state.Load()) }

// Err returns the error of the last failed Apply, or nil.
func (f *Fiber) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// Config returns the config the instance was (or will be) applied with.
func (f *Fiber) Config() any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cfg
}

// Context returns the context of the instance's current load.
func (f *Fiber) Context() *Context { return f.ctx.Load() }

// Missing returns the names of injected services that are not provided by an active plugin.
func (f *Fiber) Missing() []string { return f.missing() }

func (f *Fiber) String() string {
	if f.entry != "" && f.entry != f.mod.ID {
		return fmt.Sprintf("%s (entry %s)", f.mod.ID, f.entry)
	}
	return f.mod.ID
}

// Update restarts the instance with cfg: its effects are undone and Apply runs again. A config
// that fails Validate is refused before anything is torn down.
func (f *Fiber) Update(cfg any) error {
	if v, ok := cfg.(Validator); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	f.k.life.lock(f)
	defer f.k.life.unlock()
	if f.State() == Disposed {
		return ErrInactive
	}
	err := f.unload(Pending)
	f.mu.Lock()
	f.cfg = cfg
	f.mu.Unlock()
	if f.missing() == nil && f.parentAlive() {
		err = errors.Join(err, f.load())
	}
	return err
}

// Dispose unloads the instance for good: its effects (children included) are undone in reverse
// order, errors joined. Dispose is idempotent.
func (f *Fiber) Dispose() error {
	f.k.life.lock(f)
	defer f.k.life.unlock()
	if f.State() == Disposed {
		return nil
	}
	err := f.unload(Disposed)
	f.k.removeFiber(f)
	if f.self != nil && f.parent != nil {
		f.parent.forget(f.self)
	}
	return err
}

func (f *Fiber) setState(s State) {
	f.state.Store(int32(s))
	if ce := f.log.Check(zap.DebugLevel, "plugin "+s.String()); ce != nil {
		ce.Write()
	}
}

func (f *Fiber) begin() *Context {
	kc := newContext(f)
	f.ctx.Store(kc)
	return kc
}

func (f *Fiber) parentAlive() bool { return f.parent == nil || f.parent.alive.Load() }

func (f *Fiber) missing() []string {
	var out []string
	m := *f.k.services.Load()
	for _, d := range f.mod.Inject {
		if e := m[d.name]; e == nil || e.owner.f.State() != Active {
			out = append(out, d.name)
		}
	}
	return out
}

func (f *Fiber) dependsOn(name string) bool {
	for _, d := range f.mod.Inject {
		if d.name == name {
			return true
		}
	}
	return false
}

// load runs Apply inside the lifecycle change in progress.
func (f *Fiber) load() error {
	f.setState(Loading)
	kc := f.begin()
	f.mu.Lock()
	cfg := f.cfg
	f.mu.Unlock()
	var err error
	f.k.life.callout(kc, func() { err = f.apply(kc, cfg) })
	if err != nil {
		err = errors.Join(err, kc.close())
		f.mu.Lock()
		f.err = err
		f.mu.Unlock()
		f.setState(Failed)
		f.log.Error("apply failed", zap.Error(err))
		return err
	}
	f.mu.Lock()
	f.err = nil
	f.mu.Unlock()
	f.setState(Active)
	return nil
}

func (f *Fiber) apply(kc *Context, cfg any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recovered("apply "+f.mod.ID, r)
		}
	}()
	return f.mod.Apply(kc, cfg)
}

// unload undoes the current load's effects and leaves the fiber in state to.
func (f *Fiber) unload(to State) error {
	var err error
	if st := f.State(); st == Active || st == Loading {
		f.setState(Unloading)
		err = f.ctx.Load().close()
		if err != nil {
			f.log.Error("dispose failed", zap.Error(err))
		}
	}
	f.setState(to)
	return err
}
