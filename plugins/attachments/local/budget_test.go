package local

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// The budget tests run in a synctest bubble where they need to know that a
// request is waiting: synctest.Wait returns once every goroutine of the
// bubble is blocked, and the bubble's clock moves only then, so a wait bound
// elapses exactly.

type acquired struct {
	release func()
	err     error
}

// acquireAsync starts an acquire and returns the channel of its outcome.
func acquireAsync(ctx context.Context, b *memoryBudget, n int64, wait time.Duration) chan acquired {
	out := make(chan acquired, 1)
	go func() {
		release, err := b.acquire(ctx, n, wait)
		out <- acquired{release, err}
	}()
	return out
}

// settled reports whether an asynchronous acquire has returned, without
// waiting for it.
func settled[T any](ch chan T) (T, bool) {
	select {
	case v := <-ch:
		return v, true
	default:
		var zero T
		return zero, false
	}
}

// admitted takes the outcome of an acquire that must have succeeded.
func admitted(t *testing.T, ch chan acquired) func() {
	t.Helper()
	a, ok := settled(ch)
	require.True(t, ok, "the request is still waiting")
	require.NoError(t, a.err)
	return a.release
}

func mustAcquire(t *testing.T, b *memoryBudget, n int64) func() {
	t.Helper()
	release, err := b.acquire(context.Background(), n, time.Minute)
	require.NoError(t, err)
	return release
}

// requireAllFree checks that nothing is reserved or waiting: the whole
// capacity is admitted within a short bound.
func requireAllFree(t *testing.T, b *memoryBudget) {
	t.Helper()
	release, err := b.acquire(context.Background(), b.capacity, 10*time.Millisecond)
	require.NoError(t, err, "every byte was given back and no request is left waiting")
	release()
}

// Requests are admitted strictly in arrival order: a small one that would
// fit waits behind a large one that does not, so a large one never starves;
// it proceeds once the large one is done.
func TestMemoryBudgetFIFO(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		b := newMemoryBudget(100)
		first := mustAcquire(t, b, 60)
		large := acquireAsync(ctx, b, 100, time.Minute)
		synctest.Wait()

		start := time.Now()
		_, err := b.acquire(ctx, 10, time.Second)
		assert.Equal(t, errBudgetWait{}, err, "a later, smaller request that fits did not overtake the waiting one")
		assert.Equal(t, time.Second, time.Since(start))

		small := acquireAsync(ctx, b, 10, time.Minute)
		synctest.Wait()
		_, ok := settled(small)
		require.False(t, ok, "a later, smaller request overtook the head of the queue")

		first()
		synctest.Wait()
		releaseLarge := admitted(t, large)
		_, ok = settled(small)
		require.False(t, ok, "the small request does not fit beside the large one")

		releaseLarge()
		synctest.Wait()
		admitted(t, small)()
		requireAllFree(t, b)
	})
}

// Past the wait bound an acquire fails with errBudgetWait and leaves the
// queue; a caller's context that ends first is reported as its own cause,
// not as the bound.
func TestMemoryBudgetWaitBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemoryBudget(100)
		hold := mustAcquire(t, b, 60)

		start := time.Now()
		_, err := b.acquire(context.Background(), 50, 3*time.Second)
		assert.Equal(t, errBudgetWait{}, err)
		assert.Equal(t, 3*time.Second, time.Since(start))
		// The timed-out request left: a later one that fits is admitted at once.
		start = time.Now()
		mustAcquire(t, b, 40)()
		assert.Zero(t, time.Since(start))

		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start = time.Now()
		_, err = b.acquire(ctx, 50, time.Minute)
		assert.Equal(t, context.DeadlineExceeded, err, "the caller's deadline, not the wait bound")
		assert.Equal(t, time.Second, time.Since(start))

		hold()
		requireAllFree(t, b)
	})
}

// A waiter whose context ends leaves with the context's cause; when it was
// the head, the waiters behind it that now fit are admitted.
func TestMemoryBudgetCancelledHead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemoryBudget(100)
		hold := mustAcquire(t, b, 70)
		reason := errors.New("client went away")
		ctx, cancel := context.WithCancelCause(context.Background())
		head := acquireAsync(ctx, b, 80, time.Minute)
		synctest.Wait()
		behind := acquireAsync(context.Background(), b, 30, time.Minute)
		synctest.Wait()
		_, ok := settled(behind)
		require.False(t, ok, "the request behind the head waits")

		cancel(reason)
		synctest.Wait()
		h, ok := settled(head)
		require.True(t, ok)
		assert.Same(t, reason, h.err)
		assert.Nil(t, h.release)
		admitted(t, behind)()

		// A context already done when the request cannot be admitted: its
		// cause at once.
		start := time.Now()
		_, err := b.acquire(ctx, 80, time.Minute)
		assert.Same(t, reason, err)
		assert.Zero(t, time.Since(start))

		hold()
		requireAllFree(t, b)
	})
}

// A release gives the bytes back once, however often it is called.
func TestMemoryBudgetReleaseOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemoryBudget(100)
		a := mustAcquire(t, b, 60)
		c := mustAcquire(t, b, 40)
		a()
		a()
		again := mustAcquire(t, b, 60)
		_, err := b.acquire(context.Background(), 1, time.Second)
		assert.Equal(t, errBudgetWait{}, err, "the second call gave nothing back")
		again()
		c()
		c()
		requireAllFree(t, b)
	})
}

// Releasing a large reservation runs the collector before the next waiter
// is admitted, so the freed rasters are reused.
func TestMemoryBudgetCollectsBeforeAdmittingAfterLargeRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemoryBudget(2 * collectAbove)
		hold := mustAcquire(t, b, collectAbove)
		gcs := make(chan uint32, 1)
		go func() {
			release, err := b.acquire(context.Background(), 2*collectAbove, time.Minute)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if err == nil {
				release()
			}
			gcs <- ms.NumGC
		}()
		synctest.Wait()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		hold()
		assert.Greater(t, <-gcs, ms.NumGC, "a collection completed before the waiter was admitted")
		requireAllFree(t, b)
	})
}

// Past the wait bound the admission fails with ATTACHMENT_BUSY and its
// message; nothing stays reserved or queued. A caller's context that ends
// first is its cause.
func TestMemoryGateWaitBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemoryBudget(1 << 40)
		g := memoryGate{budget: b, wait: 30 * time.Millisecond}
		f, err := inspect(png90)
		require.NoError(t, err)
		need := transformMemory(f, len(png90), defaultPolicy)
		hold := mustAcquire(t, b, b.capacity-need+1)
		start := time.Now()
		_, err = g.admit(context.Background(), f, len(png90), defaultPolicy)
		assert.Equal(t, 30*time.Millisecond, time.Since(start))
		assert.True(t, errorIsExactly(err, attachments.CodeBusy,
			"Image normalization is busy: the image-transform memory budget stayed full for 0.03 s; retry the call."), "%v", err)
		assert.False(t, attachments.IsImageAdmissionError(err), "busy is not the image's fault")

		reason := errors.New("caller gave up")
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(10*time.Millisecond, func() { cancel(reason) })
		_, err = g.admit(ctx, f, len(png90), defaultPolicy)
		assert.Same(t, reason, err)

		hold()
		requireAllFree(t, b)
		assert.Equal(t, "Image normalization is busy: the image-transform memory budget stayed full for 120 s; retry the call.",
			BusyMessage(DefaultImageTransformMemoryWaitMs*time.Millisecond))
	})
}

// A store reserves exactly its estimate for each transform and gives it back
// afterwards, whether the admission succeeded or failed.
func TestStoreReservesItsEstimate(t *testing.T) {
	f, err := inspect(png90)
	require.NoError(t, err)
	need := transformMemory(f, len(png90), defaultPolicy)
	s := newStore(t, func(c *Config) {
		c.ImageTransformMemoryBytes = int(need) + 7
		c.ImageTransformMemoryWaitMs = 20
	})
	b := s.memory.budget
	for range 5 {
		save(t, s, png90, attachments.MediaTypePNG)
		requireAllFree(t, b)
	}

	hold := mustAcquire(t, b, 7)
	save(t, s, png90, attachments.MediaTypePNG) // the estimate fits exactly
	hold()
	hold = mustAcquire(t, b, 8)
	_, err = s.SaveImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: attachments.MediaTypePNG})
	assert.True(t, errorIsExactly(err, attachments.CodeBusy, BusyMessage(20*time.Millisecond)), "one byte short: %v", err)
	hold()
	requireAllFree(t, b)

	_, err = s.SaveImage(context.Background(), attachments.SaveImage{Data: png90[:60], MediaType: attachments.MediaTypePNG})
	require.Error(t, err)
	requireAllFree(t, b)
}

// Every store of the process configured with the same budget shares it.
func TestProcessBudgetIsShared(t *testing.T) {
	a := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = 123 << 20 })
	b := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = 123 << 20 })
	c := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = 124 << 20 })
	assert.Same(t, a.memory.budget, b.memory.budget)
	assert.NotSame(t, a.memory.budget, c.memory.budget)
	assert.Equal(t, int64(123<<20), a.memory.budget.capacity)
	assert.Equal(t, 120*time.Second, a.memory.wait)
}

// Many concurrent admissions, some cancelled and some timing out while they
// wait, never hold more than the capacity, and give every byte back.
func TestMemoryBudgetNeverExceedsCapacity(t *testing.T) {
	const capacity = 100
	b := newMemoryBudget(capacity)
	var held, peak, over, ok, failed atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), 1))
			for range 50 {
				n := 1 + r.Int64N(60)
				ctx, cancel := context.WithCancel(context.Background())
				stop := func() bool { return false }
				wait := time.Minute
				switch r.IntN(4) {
				case 0:
					stop = time.AfterFunc(time.Duration(r.IntN(200))*time.Microsecond, cancel).Stop
				case 1:
					wait = time.Duration(1+r.IntN(200)) * time.Microsecond
				}
				release, err := b.acquire(ctx, n, wait)
				if err == nil {
					ok.Add(1)
					v := held.Add(n)
					if v > capacity {
						over.Add(1)
					}
					for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
					}
					time.Sleep(time.Duration(r.IntN(100)) * time.Microsecond)
					held.Add(-n)
					release()
					release()
				} else {
					failed.Add(1)
				}
				stop()
				cancel()
			}
		})
	}
	wg.Wait()
	t.Logf("admitted %d, gave up %d, peak %d", ok.Load(), failed.Load(), peak.Load())
	assert.Zero(t, over.Load(), "admitted tasks held more than the capacity")
	assert.LessOrEqual(t, peak.Load(), int64(capacity))
	assert.Positive(t, ok.Load())
	requireAllFree(t, b)
}

var defaultPolicy = NormalizationPolicy{MaxDimension: DefaultNormalizedImageMaxDimension, MaxBytes: DefaultNormalizedImageMaxBytes}
