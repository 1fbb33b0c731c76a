package kernel

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/asaskevich/EventBus"
	"go.uber.org/zap"
)

// Kernel is the root of a plugin tree: it owns the listener tables, the service store and the
// lifecycle lock that serialises loads and unloads.
type Kernel struct {
	log     *zap.Logger
	catalog *Catalog
	root    *Fiber

	life     lifecycleLock
	draining bool // guarded by life

	fibMu  sync.Mutex
	fibers []*Fiber // every fiber that is not disposed, in load order

	svcMu    sync.Mutex
	services atomic.Pointer[map[string]*serviceEntry]

	tabMu  sync.Mutex
	tables atomic.Pointer[[]any]

	fiberSeq    atomic.Uint64
	listenerSeq atomic.Int64
	listeners   atomic.Int64

	bus          EventBus.Bus
	async        pending // queued Async events and stopping queues
	asyncDropped atomic.Uint64
}

// Option configures New.
type Option func(*Kernel)

// WithLogger sets the logger; the kernel logs under the name "kernel". The default is a no-op logger.
func WithLogger(l *zap.Logger) Option { return func(k *Kernel) { k.log = l } }

// WithCatalog sets the catalog the kernel reports through Catalog (the one a loader looks entry
// names up in). The default is an empty catalog.
func WithCatalog(c *Catalog) Option { return func(k *Kernel) { k.catalog = c } }

// New returns a kernel whose root context is active.
func New(opts ...Option) *Kernel {
	k := &Kernel{log: zap.NewNop(), catalog: NewCatalog(), bus: EventBus.New()}
	k.life.k = k
	for _, o := range opts {
		o(k)
	}
	k.log = k.log.Named("kernel")
	empty := map[string]*serviceEntry{}
	k.services.Store(&empty)
	tabs := []any{}
	k.tables.Store(&tabs)
	k.root = &Fiber{k: k, id: 0, mod: Module{ID: "root"}, rank: -1, log: k.log}
	k.root.state.Store(int32(Active))
	k.root.begin()
	return k
}

// Root returns the root context; modules loaded through it are top-level plugin instances.
func (k *Kernel) Root() *Context { return k.root.ctx.Load() }

// Catalog returns the kernel's catalog.
func (k *Kernel) Catalog() *Catalog { return k.catalog }

// Logger returns the kernel's logger.
func (k *Kernel) Logger() *zap.Logger { return k.log }

// Close waits for asynchronous listeners to take what was emitted, then disposes every plugin
// instance in reverse order of loading, then drains what the disposers emitted. The kernel's root context is inactive afterwards.
func (k *Kernel) Close(ctx context.Context) error {
	err := k.waitAsync(ctx)
	k.life.lock(nil)
	err = errors.Join(err, k.root.unload(Disposed))
	k.life.unlock()
	return errors.Join(err, k.waitAsync(ctx))
}

// waitAsync waits until asynchronous listeners have taken every published event, or ctx ends.
func (k *Kernel) waitAsync(ctx context.Context) error {
	return k.async.wait(ctx)
}

// Fibers returns the plugin instances that are not disposed, in load order.
func (k *Kernel) Fibers() []*Fiber {
	k.fibMu.Lock()
	defer k.fibMu.Unlock()
	return append([]*Fiber(nil), k.fibers...)
}

// ListenerCount returns how many listeners are registered across all events.
func (k *Kernel) ListenerCount() int { return int(k.listeners.Load()) }

// ServiceCount returns how many services are provided.
func (k *Kernel) ServiceCount() int { return len(*k.services.Load()) }

// drain loads every pending fiber whose dependencies became available. It runs with the
// lifecycle lock held, at the end of the outermost structural operation.
func (k *Kernel) drain() {
	if k.draining {
		return
	}
	k.draining = true
	defer func() { k.draining = false }()
	for {
		var ready []*Fiber
		for _, f := range k.Fibers() {
			if f.State() == Pending && f.parentAlive() && f.missing() == nil {
				ready = append(ready, f)
			}
		}
		if len(ready) == 0 {
			return
		}
		sort.SliceStable(ready, func(i, j int) bool { return ready[i].rank < ready[j].rank })
		for _, f := range ready {
			if f.State() == Pending && f.missing() == nil {
				_ = f.load()
			}
		}
	}
}

func (k *Kernel) addFiber(f *Fiber) {
	k.fibMu.Lock()
	k.fibers = append(k.fibers, f)
	k.fibMu.Unlock()
}

func (k *Kernel) removeFiber(f *Fiber) {
	k.fibMu.Lock()
	defer k.fibMu.Unlock()
	for i, g := range k.fibers {
		if g == f {
			k.fibers = append(k.fibers[:i], k.fibers[i+1:]...)
			return
		}
	}
}
