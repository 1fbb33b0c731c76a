package local

import (
	"context"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"
)

// memoryBudget admits image transforms against a number of bytes, strictly
// in arrival order (semaphore.Weighted): a request that does not fit waits,
// and so does every later one (a small transform never overtakes a large
// one, so none starves). A request larger than the whole budget is the
// caller's to refuse; acquire never admits it.
type memoryBudget struct {
	sem      *semaphore.Weighted
	capacity int64
}

// collectAbove: releasing at least this many bytes runs the collector
// before the next waiter is admitted, so the freed rasters are reused
// instead of the heap growing by another transform's worth (with GOGC=100 a
// finished transform's garbage otherwise lingers until the heap doubles).
const collectAbove = 64 << 20

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
	return &memoryBudget{sem: semaphore.NewWeighted(capacity), capacity: capacity}
}

// errBudgetWait reports that acquire gave up after its wait bound.
type errBudgetWait struct{}

func (errBudgetWait) Error() string { return "the image-transform memory budget stayed full" }

// acquire reserves n bytes (0 < n <= capacity), waiting in FIFO order at
// most wait. It returns the function that gives them back (it runs once
// however often it is called), context.Cause(ctx) when ctx ends first, or
// errBudgetWait.
func (b *memoryBudget) acquire(ctx context.Context, n int64, wait time.Duration) (func(), error) {
	if !b.sem.TryAcquire(n) {
		wctx, cancel := context.WithTimeoutCause(ctx, wait, errBudgetWait{})
		err := b.sem.Acquire(wctx, n)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			return nil, errBudgetWait{}
		}
	}
	return sync.OnceFunc(func() {
		if n >= collectAbove {
			runtime.GC()
		}
		b.sem.Release(n)
	}), nil
}
