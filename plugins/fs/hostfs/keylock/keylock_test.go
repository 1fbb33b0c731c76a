package keylock_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs/keylock"
)

func TestZeroValueAndEmptyAfterUnlock(t *testing.T) {
	var tb keylock.Table
	if tb.Len() != 0 {
		t.Fatal("zero table not empty")
	}
	unlock, err := tb.Lock(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Len() != 1 {
		t.Fatalf("Len = %d while held", tb.Len())
	}
	unlock()
	unlock() // idempotent
	if tb.Len() != 0 {
		t.Fatalf("Len = %d after unlock", tb.Len())
	}
}

func TestUncontendedLockIgnoresCancelledContext(t *testing.T) {
	var tb keylock.Table
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	unlock, err := tb.Lock(ctx, "k")
	if err != nil {
		t.Fatalf("uncontended Lock with cancelled ctx: %v", err)
	}
	// Contended and already cancelled: fails at once.
	if _, err := tb.Lock(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("contended cancelled Lock err = %v", err)
	}
	unlock()
	if tb.Len() != 0 {
		t.Fatal("table not empty")
	}
}

func TestFIFOOrder(t *testing.T) {
	var tb keylock.Table
	ctx := context.Background()
	first, _ := tb.Lock(ctx, "k")
	const n = 20
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := tb.Lock(ctx, "k")
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			unlock()
		}()
		// Wait until goroutine i is queued before starting i+1.
		waitFor(t, func() bool { return queued(&tb) == i+1 })
	}
	first()
	wg.Wait()
	for i, v := range order {
		if v != i {
			t.Fatalf("order = %v", order)
		}
	}
	if tb.Len() != 0 {
		t.Fatal("table not empty")
	}
}

func TestKeysAreIndependent(t *testing.T) {
	var tb keylock.Table
	a, _ := tb.Lock(context.Background(), "a")
	b, err := tb.Lock(context.Background(), "b")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Len() != 2 {
		t.Fatalf("Len = %d", tb.Len())
	}
	a()
	b()
}

func TestCancelWhileWaiting(t *testing.T) {
	var tb keylock.Table
	first, _ := tb.Lock(context.Background(), "k")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := tb.Lock(ctx, "k")
		done <- err
	}()
	waitFor(t, func() bool { return queued(&tb) == 1 })
	// A third waiter queued behind the cancelled one must still get the lock.
	third := make(chan func())
	go func() {
		u, _ := tb.Lock(context.Background(), "k")
		third <- u
	}()
	waitFor(t, func() bool { return queued(&tb) == 2 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	first()
	(<-third)()
	if tb.Len() != 0 {
		t.Fatal("table not empty after cancel")
	}
}

func TestCancelRacingHandOff(t *testing.T) {
	var tb keylock.Table
	for range 500 {
		first, _ := tb.Lock(context.Background(), "k")
		ctx, cancel := context.WithCancel(context.Background())
		res := make(chan func())
		go func() {
			u, err := tb.Lock(ctx, "k")
			if err != nil {
				u = func() {}
			}
			res <- u
		}()
		waitFor(t, func() bool { return queued(&tb) == 1 })
		go cancel()
		first()
		(<-res)()
		waitFor(t, func() bool { return tb.Len() == 0 })
	}
}

// queued counts the callers waiting for "k".
func queued(tb *keylock.Table) int { return keylock.Waiters(tb, "k") }

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(50 * time.Microsecond)
	}
}
