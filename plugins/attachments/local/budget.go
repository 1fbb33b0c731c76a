package attachmentlocal

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// memoryBudget admits image transforms against a number of bytes, strictly
// in arrival order: a request that does not fit waits, and so does every
// later one (a small transform never overtakes a large one, so none
// starves). A request larger than the whole budget is the caller's to
// refuse; acquire never admits it.
type memoryBudget struct {
	mu       sync.Mutex
	capacity int64
	used     int64
	queue    []*budgetWaiter
	// collectAbove: releasing at least this many bytes runs the collector
	// before the next waiter is admitted, so the freed rasters are reused
	// instead of the heap growing by another transform's worth (with
	// GOGC=100 a finished transform's garbage otherwise lingers until the
	// heap doubles).
	collectAbove int64
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed once admitted
}

// budgets holds the process-wide budgets, one per configured capacity:
// every store of the process configured alike shares one.
var budgets struct {
	mu sync.Mutex
	m  map[int64]*memoryBudget
}

// processBudget returns the process-wide budget of capacity bytes.
func processBudget(capacity int64) *memoryBudget {
	budgets.mu.Lock()
	defer budgets.mu.Unlock()
	if b, ok := budgets.m[capacity]; ok {
		return b
	}
	if budgets.m == nil {
		budgets.m = map[int64]*memoryBudget{}
	}
	b := newMemoryBudget(capacity)
	budgets.m[capacity] = b
	return b
}

func newMemoryBudget(capacity int64) *memoryBudget {
	return &memoryBudget{capacity: capacity, collectAbove: 64 << 20}
}

// errBudgetWait reports that acquire gave up after its wait bound.
type errBudgetWait struct{}

func (errBudgetWait) Error() string { return "the image-transform memory budget stayed full" }

// acquire reserves n bytes (0 < n <= capacity), waiting in FIFO order at
// most wait. It returns the function that gives them back (call it
// exactly once), context.Cause(ctx) when ctx ends first, or errBudgetWait.
func (b *memoryBudget) acquire(ctx context.Context, n int64, wait time.Duration) (func(), error) {
	b.mu.Lock()
	if len(b.queue) == 0 && b.used+n <= b.capacity {
		b.used += n
		b.mu.Unlock()
		return b.releaser(n), nil
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.queue = append(b.queue, w)
	b.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var err error
	select {
	case <-w.ready:
		return b.releaser(n), nil
	case <-ctx.Done():
		err = context.Cause(ctx)
	case <-timer.C:
		err = errBudgetWait{}
	}
	b.mu.Lock()
	for i, q := range b.queue {
		if q == w {
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			// The head left: those behind it may fit now.
			b.admitLocked()
			b.mu.Unlock()
			return nil, err
		}
	}
	b.mu.Unlock()
	// Admitted concurrently: give the bytes back.
	b.release(n)
	return nil, err
}

// releaser returns a release of n bytes that runs at most once.
func (b *memoryBudget) releaser(n int64) func() {
	var once sync.Once
	return func() { once.Do(func() { b.release(n) }) }
}

// release gives n bytes back and admits the waiters that now fit, in order.
func (b *memoryBudget) release(n int64) {
	if n >= b.collectAbove {
		runtime.GC()
	}
	b.mu.Lock()
	b.used -= n
	b.admitLocked()
	b.mu.Unlock()
}

// admitLocked admits waiters from the head of the queue while they fit.
func (b *memoryBudget) admitLocked() {
	for len(b.queue) > 0 && b.used+b.queue[0].n <= b.capacity {
		w := b.queue[0]
		b.queue = b.queue[1:]
		b.used += w.n
		close(w.ready)
	}
}

// inUse reports the reserved bytes and the number of waiters (for tests).
func (b *memoryBudget) inUse() (int64, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, len(b.queue)
}
