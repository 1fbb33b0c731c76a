// Package keylock provides an in-process, per-key FIFO mutex whose table holds
// an entry only while some caller owns or waits for that key.
package keylock

import (
	"context"
	"sync"
)

// Table is a set of FIFO mutexes keyed by string. The zero value is ready to
// use. A Table must not be copied after first use.
type Table struct {
	mu sync.Mutex
	m  map[string]*entry
}

// entry is one held key: its presence in the map means some caller owns the
// key; waiters are the callers queued behind the owner, in arrival order.
type entry struct {
	waiters []chan struct{}
}

// Lock acquires the mutex for key, waiting behind every earlier caller for the
// same key (first come, first served). The predecessor's outcome does not
// matter. An uncontended Lock always succeeds, even with a cancelled ctx; a
// caller that has to wait gives up with ctx.Err() when ctx ends first, and
// then holds nothing. The returned unlock must be called exactly once.
func (t *Table) Lock(ctx context.Context, key string) (unlock func(), err error) {
	t.mu.Lock()
	if t.m == nil {
		t.m = make(map[string]*entry)
	}
	e, busy := t.m[key]
	if !busy {
		t.m[key] = &entry{}
		t.mu.Unlock()
		return t.unlocker(key), nil
	}
	if err := ctx.Err(); err != nil {
		t.mu.Unlock()
		return nil, err
	}
	turn := make(chan struct{})
	e.waiters = append(e.waiters, turn)
	t.mu.Unlock()

	select {
	case <-turn:
		return t.unlocker(key), nil
	case <-ctx.Done():
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-turn:
		// Handed over while we were giving up: pass it on.
		t.releaseLocked(key)
	default:
		for i, w := range e.waiters {
			if w == turn {
				e.waiters = append(e.waiters[:i], e.waiters[i+1:]...)
				break
			}
		}
	}
	return nil, ctx.Err()
}

func (t *Table) unlocker(key string) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			t.releaseLocked(key)
			t.mu.Unlock()
		})
	}
}

// releaseLocked hands the key to the oldest waiter or forgets the key.
func (t *Table) releaseLocked(key string) {
	e := t.m[key]
	if len(e.waiters) == 0 {
		delete(t.m, key)
		return
	}
	next := e.waiters[0]
	e.waiters[0] = nil
	e.waiters = e.waiters[1:]
	close(next)
}

// Len reports how many keys are currently held or awaited.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
