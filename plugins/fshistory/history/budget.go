package history

import (
	"context"
	"sync"
	"time"
)

// LockBudget is what one call may wait, in all, for other processes holding the store: each
// operation under it waits at most what is left (docs/history.md "The store").
type LockBudget struct {
	mu   sync.Mutex
	rest time.Duration
}

// NewLockBudget returns a budget of d.
func NewLockBudget(d time.Duration) *LockBudget { return &LockBudget{rest: d} }

func (b *LockBudget) left() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rest
}

func (b *LockBudget) spend(d time.Duration) {
	b.mu.Lock()
	b.rest -= d
	b.mu.Unlock()
}

type budgetKey struct{}

// WithLockBudget returns ctx carrying b.
func WithLockBudget(ctx context.Context, b *LockBudget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

// LockBudgetOf returns the budget ctx carries (nil: none).
func LockBudgetOf(ctx context.Context) *LockBudget {
	b, _ := ctx.Value(budgetKey{}).(*LockBudget)
	return b
}

// Within returns st with every wait for another process taken from b: the operations of one
// call wait, together, at most b. A nil b, or a store that does not wait, returns st.
func Within(st Store, b *LockBudget) Store {
	s, ok := st.(*boltStore)
	if !ok || b == nil {
		return st
	}
	cp := *s
	cp.budget = b
	return &cp
}
