package attachmentlocal

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The transform limiter: at most n tasks at once; a slot is held until the
// task settles (success or failure); waiters start in FIFO order.
func TestLimiterBoundAndFIFO(t *testing.T) {
	for _, n := range []int{1, 2} {
		l := newLimiter(n)
		var running, peak atomic.Int32
		release := make(chan struct{})
		var order []int
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := func(i int) {
			wg.Go(func() {
				_ = l.run(context.Background(), func() error {
					c := running.Add(1)
					for {
						p := peak.Load()
						if c <= p || peak.CompareAndSwap(p, c) {
							break
						}
					}
					<-release
					mu.Lock()
					order = append(order, i)
					mu.Unlock()
					running.Add(-1)
					if i%2 == 0 {
						return errors.New("task failed")
					}
					return nil
				})
			})
		}
		for i := 0; i < n; i++ {
			start(i)
		}
		waitFor(t, func() bool { return int(running.Load()) == n })
		for i := n; i < 6; i++ {
			start(i)
			waitFor(t, func() bool { l.mu.Lock(); defer l.mu.Unlock(); return len(l.queue) == i-n+1 })
		}
		close(release)
		wg.Wait()
		assert.Equal(t, int32(n), peak.Load())
		if n == 1 {
			assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, order, "waiters start in FIFO order")
		}
		assert.Len(t, order, 6)
		assert.Equal(t, 0, l.running)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

// A cancelled waiter leaves the queue with its cause and takes no slot.
func TestLimiterCancelledWaiter(t *testing.T) {
	l := newLimiter(1)
	hold := make(chan struct{})
	go func() { _ = l.run(context.Background(), func() error { <-hold; return nil }) }()
	waitFor(t, func() bool { l.mu.Lock(); defer l.mu.Unlock(); return l.running == 1 })
	reason := errors.New("caller gave up")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	ran := false
	go func() { done <- l.run(ctx, func() error { ran = true; return nil }) }()
	waitFor(t, func() bool { l.mu.Lock(); defer l.mu.Unlock(); return len(l.queue) == 1 })
	cancel(reason)
	assert.Same(t, reason, <-done)
	assert.False(t, ran)
	close(hold)
	require.NoError(t, l.run(context.Background(), func() error { return nil }))
	assert.Equal(t, 0, l.running)
}

// A panicking task frees its slot; a non-error panic value becomes the
// reference's non-Error message with the value reachable as the cause.
func TestLimiterPanics(t *testing.T) {
	l := newLimiter(1)
	err := l.run(context.Background(), func() error { panic("boom") })
	assert.EqualError(t, err, "Image compression task rejected with a non-Error value.")
	assert.EqualError(t, errors.Unwrap(err), "boom")
	sentinel := errors.New("typed failure")
	err = l.run(context.Background(), func() error { panic(sentinel) })
	assert.Same(t, sentinel, err)
	require.NoError(t, l.run(context.Background(), func() error { return nil }), "slot released after panics")
}

// The transform limiter through the store: concurrency 1 serializes
// validations.
func TestStoreUsesLimiter(t *testing.T) {
	s := newStore(t, func(c *Config) { c.ImageCompressionConcurrency = 1 })
	assert.Equal(t, 1, s.ImageCompressionConcurrency())
	hold := make(chan struct{})
	go func() { _ = s.limiter.run(context.Background(), func() error { <-hold; return nil }) }()
	waitFor(t, func() bool { s.limiter.mu.Lock(); defer s.limiter.mu.Unlock(); return s.limiter.running == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := s.ValidateImage(ctx, saveInput(png90))
	assert.ErrorIs(t, err, context.DeadlineExceeded, "waited for the busy slot, then gave up")
	close(hold)
	require.NoError(t, s.ValidateImage(context.Background(), saveInput(png90)))
}
