package local

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireSlotsFree checks that all n slots are free: n tasks run at once.
// Call it inside a synctest bubble.
func requireSlotsFree(t *testing.T, l *limiter, n int) {
	t.Helper()
	var running atomic.Int32
	hold := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_ = l.run(context.Background(), func() error { running.Add(1); <-hold; return nil })
		})
	}
	synctest.Wait()
	assert.Equal(t, int32(n), running.Load(), "every slot was given back")
	close(hold)
	wg.Wait()
}

// The transform limiter: at most n tasks at once; a slot is held until the
// task settles (success or failure); waiters start in FIFO order.
func TestLimiterBoundAndFIFO(t *testing.T) {
	for _, n := range []int{1, 2} {
		synctest.Test(t, func(t *testing.T) {
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
				synctest.Wait() // i runs or waits before i+1 arrives
			}
			for i := range 6 {
				start(i)
			}
			assert.Equal(t, int32(n), running.Load(), "the first n run, the others wait")
			close(release)
			wg.Wait()
			assert.Equal(t, int32(n), peak.Load())
			if n == 1 {
				assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, order, "waiters start in FIFO order")
			}
			assert.Len(t, order, 6)
			requireSlotsFree(t, l, n)
		})
	}
}

// A cancelled waiter leaves the queue with its cause and takes no slot; the
// waiter behind it starts when the slot is free, not before.
func TestLimiterCancelledWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLimiter(1)
		hold := make(chan struct{})
		held := make(chan error, 1)
		go func() { held <- l.run(context.Background(), func() error { <-hold; return nil }) }()
		synctest.Wait()
		reason := errors.New("caller gave up")
		ctx, cancel := context.WithCancelCause(context.Background())
		head := make(chan error, 1)
		var headRan, behindRan atomic.Bool
		go func() { head <- l.run(ctx, func() error { headRan.Store(true); return nil }) }()
		synctest.Wait()
		behind := make(chan error, 1)
		go func() { behind <- l.run(context.Background(), func() error { behindRan.Store(true); return nil }) }()
		synctest.Wait()

		cancel(reason)
		assert.Same(t, reason, <-head)
		assert.False(t, headRan.Load())
		synctest.Wait()
		assert.False(t, behindRan.Load(), "the slot is still held")

		close(hold)
		require.NoError(t, <-held)
		require.NoError(t, <-behind)
		assert.True(t, behindRan.Load())

		// A context already done while the slot is taken: its cause at once.
		hold = make(chan struct{})
		go func() { held <- l.run(context.Background(), func() error { <-hold; return nil }) }()
		synctest.Wait()
		start := time.Now()
		assert.Same(t, reason, l.run(ctx, func() error { headRan.Store(true); return nil }))
		assert.Zero(t, time.Since(start))
		assert.False(t, headRan.Load())
		close(hold)
		require.NoError(t, <-held)
		requireSlotsFree(t, l, 1)
	})
}

// A panicking task frees its slot; a non-error panic value becomes
// MsgNonErrorRejection with the value reachable as the cause.
func TestLimiterPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLimiter(1)
		err := l.run(context.Background(), func() error { panic("boom") })
		assert.EqualError(t, err, "Image compression task rejected with a non-Error value.")
		assert.EqualError(t, errors.Unwrap(err), "boom")
		sentinel := errors.New("typed failure")
		err = l.run(context.Background(), func() error { panic(sentinel) })
		assert.Same(t, sentinel, err)
		requireSlotsFree(t, l, 1)
	})
}

// Many concurrent tasks, some cancelled while they wait, some failing or
// panicking, never run more than n at once, and give every slot back.
func TestLimiterNeverExceedsN(t *testing.T) {
	const n = 3
	l := newLimiter(n)
	var running, peak, over, ran, gaveUp atomic.Int32
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), 2))
			for range 50 {
				ctx, cancel := context.WithCancel(context.Background())
				stop := func() bool { return false }
				if r.IntN(3) == 0 {
					stop = time.AfterFunc(time.Duration(r.IntN(200))*time.Microsecond, cancel).Stop
				}
				fate := r.IntN(3)
				err := l.run(ctx, func() error {
					c := running.Add(1)
					defer running.Add(-1)
					if c > n {
						over.Add(1)
					}
					for p := peak.Load(); c > p && !peak.CompareAndSwap(p, c); p = peak.Load() {
					}
					ran.Add(1)
					time.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
					switch fate {
					case 1:
						return errors.New("task failed")
					case 2:
						panic("task panicked")
					}
					return nil
				})
				if errors.Is(err, context.Canceled) {
					gaveUp.Add(1)
				}
				stop()
				cancel()
			}
		})
	}
	wg.Wait()
	t.Logf("ran %d, gave up %d, peak %d", ran.Load(), gaveUp.Load(), peak.Load())
	assert.Zero(t, over.Load(), "more than n tasks ran at once")
	assert.LessOrEqual(t, peak.Load(), int32(n))
	synctest.Test(t, func(t *testing.T) { requireSlotsFree(t, l, n) })
}

// The transform limiter through the store: concurrency 1 serializes
// validations.
func TestStoreUsesLimiter(t *testing.T) {
	s := newStore(t, func(c *Config) { c.ImageCompressionConcurrency = 1 })
	assert.Equal(t, 1, s.ImageCompressionConcurrency())
	hold := make(chan struct{})
	started := make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- s.limiter.run(context.Background(), func() error { close(started); <-hold; return nil })
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := s.ValidateImage(ctx, saveInput(png90))
	assert.ErrorIs(t, err, context.DeadlineExceeded, "waited for the busy slot, then gave up")
	close(hold)
	require.NoError(t, <-held)
	require.NoError(t, s.ValidateImage(context.Background(), saveInput(png90)))
}
