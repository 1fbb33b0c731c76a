package kernel

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Disposer undoes one registration. Calling it again does nothing.
type Disposer func() error

// ListenOption tunes a listener registration.
type ListenOption func(*listenOpts)

type listenOpts struct {
	prepend, once, async bool
	queue                int
	tag                  string
}

// Prepend places the listener ahead of every listener registered without it. Among prepended
// listeners of one composition entry the last prepended runs first, as in Cordis.
func Prepend() ListenOption { return func(o *listenOpts) { o.prepend = true } }

// Once removes the listener before its first invocation.
func Once() ListenOption { return func(o *listenOpts) { o.once = true } }

// Async delivers an Event's payloads to the listener on another goroutine, in emit order, through
// a bounded queue of its own (AsyncQueue) that EventBus fills without ever waiting for the
// listener: an emit never waits for an Async listener, and an event that finds the queue full is
// dropped, counted and logged. Errors and panics of async listeners are logged. Kernel.Close waits
// for delivery (docs/kernel.md "Asynchronous listeners").
func Async() ListenOption { return func(o *listenOpts) { o.async = true } }

// Tag marks the listener with t, a promise its key's owner defines: a key's ListenersExcept leaves
// the listeners marked t out of its count.
//
//	tools.PostExecute.On(kc, fn, kernel.Tag(tools.ValueBlind)) // fn never reads Result.Value
func Tag(t string) ListenOption { return func(o *listenOpts) { o.tag = t } }

// KeyOption tunes an event key declaration.
type KeyOption func(*keyOpts)

type keyOpts struct{ single bool }

// SingleSlot marks a waterfall whose first decider owns the decision; a second live decider is
// logged as a warning naming both plugins.
func SingleSlot() KeyOption { return func(o *keyOpts) { o.single = true } }

var keySeq atomic.Int64

type listener[F any] struct {
	fn      F
	kc      *Context
	band    int
	rank    int
	seq     int64
	once    bool
	decider bool
	fired   atomic.Bool
	dispose Disposer
	topic   string
	tag     string
}

func (l *listener[F]) before(o *listener[F]) bool {
	if l.band != o.band {
		return l.band < o.band
	}
	if l.rank != o.rank {
		return l.rank < o.rank
	}
	if l.band == 0 {
		return l.seq > o.seq
	}
	return l.seq < o.seq
}

// live reports whether the listener may run, consuming a Once listener.
func (l *listener[F]) live() bool {
	if !l.kc.alive.Load() {
		return false
	}
	if l.once {
		if !l.fired.CompareAndSwap(false, true) {
			return false
		}
		_ = l.dispose()
	}
	return true
}

// table holds one event's listeners in a kernel as a sorted copy-on-write slice.
type table[F any] struct {
	mu   sync.Mutex
	list atomic.Pointer[[]*listener[F]]
}

func (t *table[F]) snapshot() []*listener[F] {
	if p := t.list.Load(); p != nil {
		return *p
	}
	return nil
}

func (t *table[F]) add(l *listener[F]) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur := t.snapshot()
	i := 0
	for i < len(cur) && cur[i].before(l) {
		i++
	}
	next := slices.Insert(slices.Clone(cur), i, l)
	t.list.Store(&next)
}

func (t *table[F]) remove(l *listener[F]) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur := t.snapshot()
	i := slices.Index(cur, l)
	if i < 0 {
		return false
	}
	next := slices.Delete(slices.Clone(cur), i, i+1)
	t.list.Store(&next)
	return true
}

func lookup[F any](k *Kernel, id int64) *table[F] {
	ts := *k.tables.Load()
	if id < int64(len(ts)) {
		if t, ok := ts[id].(*table[F]); ok {
			return t
		}
	}
	return nil
}

func ensure[F any](k *Kernel, id int64) *table[F] {
	if t := lookup[F](k, id); t != nil {
		return t
	}
	k.tabMu.Lock()
	defer k.tabMu.Unlock()
	ts := *k.tables.Load()
	if id < int64(len(ts)) && ts[id] != nil {
		return ts[id].(*table[F])
	}
	next := make([]any, max(int64(len(ts)), id+1))
	copy(next, ts)
	t := &table[F]{}
	next[id] = t
	k.tables.Store(&next)
	return t
}

// listen registers l in the table of key id as an effect of kc.
func listen[F any](kc *Context, id int64, name string, l *listener[F], opts []ListenOption) (Disposer, error) {
	var o listenOpts
	for _, opt := range opts {
		opt(&o)
	}
	k := kc.k
	t := ensure[F](k, id)
	l.kc, l.once, l.rank, l.band, l.tag = kc, o.once, kc.f.rank, 1, o.tag
	if o.prepend {
		l.band = 0
	}
	l.seq = k.listenerSeq.Add(1)
	t.add(l)
	k.listeners.Add(1)
	undo := func() error {
		if t.remove(l) {
			k.listeners.Add(-1)
		}
		return nil
	}
	e, err := kc.addEffect("on "+name, undo)
	if err != nil {
		undo()
		return nil, err
	}
	l.dispose = kc.disposer(e)
	return l.dispose, nil
}

func count[F any](kc *Context, id int64) int { return countExcept[F](kc, id, "") }

// countExcept is count without the listeners tagged tag ("": none left out).
func countExcept[F any](kc *Context, id int64, tag string) int {
	t := lookup[F](kc.k, id)
	if t == nil {
		return 0
	}
	n := 0
	for _, l := range t.snapshot() {
		if l.kc.alive.Load() && (tag == "" || l.tag != tag) {
			n++
		}
	}
	return n
}

// keyCache remembers the table of the kernel an event key was last dispatched in, so that the
// common one-kernel process skips the table index on the hot path. It remembers a key without a
// table too, for as long as the kernel's index is the one it looked in (a table is only ever added
// by replacing the index): a stage nobody listens to costs no index look-up per dispatch.
type keyCache[F any] struct {
	p atomic.Pointer[cachedTable[F]]
}

type cachedTable[F any] struct {
	k      *Kernel
	t      *table[F]
	tables *[]any // the index t was looked up in, for a nil t
}

func (c *keyCache[F]) get(k *Kernel, id int64) *table[F] {
	ct := c.p.Load()
	if ct != nil && ct.k == k && (ct.t != nil || ct.tables == k.tables.Load()) {
		return ct.t
	}
	ts := k.tables.Load() // before the look-up: an index replaced meanwhile only costs a miss
	t := lookup[F](k, id)
	c.p.Store(&cachedTable[F]{k: k, t: t, tables: ts})
	return t
}
