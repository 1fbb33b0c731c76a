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

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// acquireAsync starts an acquire and returns the channel of its outcome.
func acquireAsync(ctx context.Context, b *memoryBudget, n int64, wait time.Duration) chan func() {
	out := make(chan func(), 1)
	go func() {
		release, err := b.acquire(ctx, n, wait)
		if err != nil {
			release = nil
		}
		out <- release
	}()
	return out
}

func queued(b *memoryBudget) int { _, q := b.inUse(); return q }

// Requests are admitted strictly in arrival order: a small one that would
// fit waits behind a large one that does not, so a large one never starves.
func TestMemoryBudgetFIFO(t *testing.T) {
	b := newMemoryBudget(100)
	first, err := b.acquire(context.Background(), 60, time.Minute)
	require.NoError(t, err)
	large := acquireAsync(context.Background(), b, 50, time.Minute)
	waitFor(t, func() bool { return queued(b) == 1 })
	small := acquireAsync(context.Background(), b, 10, time.Minute)
	waitFor(t, func() bool { return queued(b) == 2 })
	select {
	case <-small:
		t.Fatal("a later, smaller request overtook the head of the queue")
	case <-time.After(20 * time.Millisecond):
	}
	first()
	releaseLarge, releaseSmall := <-large, <-small
	require.NotNil(t, releaseLarge)
	require.NotNil(t, releaseSmall)
	used, q := b.inUse()
	assert.Equal(t, int64(60), used)
	assert.Zero(t, q)
	releaseLarge()
	releaseSmall()
	releaseSmall() // a release runs once
	used, _ = b.inUse()
	assert.Zero(t, used)
}

// A waiter whose context ends leaves with the context's cause; when it was
// the head, the waiters behind it that now fit are admitted.
func TestMemoryBudgetCancelledHead(t *testing.T) {
	b := newMemoryBudget(100)
	hold, err := b.acquire(context.Background(), 70, time.Minute)
	require.NoError(t, err)
	reason := errors.New("client went away")
	ctx, cancel := context.WithCancelCause(context.Background())
	head := make(chan error, 1)
	go func() { _, err := b.acquire(ctx, 80, time.Minute); head <- err }()
	waitFor(t, func() bool { return queued(b) == 1 })
	behind := acquireAsync(context.Background(), b, 30, time.Minute)
	waitFor(t, func() bool { return queued(b) == 2 })
	cancel(reason)
	assert.Same(t, reason, <-head)
	release := <-behind
	require.NotNil(t, release, "the waiter behind the cancelled head fits and is admitted")
	release()
	hold()
	used, q := b.inUse()
	assert.Zero(t, used)
	assert.Zero(t, q)
}

// Past the wait bound the admission fails with ATTACHMENT_BUSY and its
// message; nothing stays reserved or queued.
func TestMemoryGateWaitBound(t *testing.T) {
	b := newMemoryBudget(1 << 40)
	g := memoryGate{budget: b, wait: 30 * time.Millisecond}
	f, err := inspect(png90)
	require.NoError(t, err)
	need := transformMemory(f, len(png90), defaultPolicy)
	hold, err := b.acquire(context.Background(), b.capacity-need+1, time.Minute)
	require.NoError(t, err)
	start := time.Now()
	_, err = g.admit(context.Background(), f, len(png90), defaultPolicy)
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
	assert.True(t, errorIsExactly(err, attachments.CodeBusy,
		"Image normalization is busy: the image-transform memory budget stayed full for 0.03 s; retry the call."), "%v", err)
	assert.False(t, attachments.IsImageAdmissionError(err), "busy is not the image's fault")
	_, q := b.inUse()
	assert.Zero(t, q)
	hold()
	used, _ := b.inUse()
	assert.Zero(t, used)
	assert.Equal(t, "Image normalization is busy: the image-transform memory budget stayed full for 120 s; retry the call.",
		BusyMessage(DefaultImageTransformMemoryWaitMs*time.Millisecond))
}

// A store admits each transform against the budget and gives the bytes
// back afterwards, whether the admission succeeded or failed.
func TestStoreReservesItsEstimate(t *testing.T) {
	s := newStore(t, func(c *Config) { c.ImageTransformMemoryBytes = 1<<40 + 7 })
	b := s.memory.budget
	f, err := inspect(png90)
	require.NoError(t, err)
	var peak atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			used, _ := b.inUse()
			if used > peak.Load() {
				peak.Store(used)
			}
		}
	})
	for range 20 {
		save(t, s, png90, attachments.MediaTypePNG)
	}
	_, err = s.SaveImage(context.Background(), attachments.SaveImage{Data: png90[:60], MediaType: attachments.MediaTypePNG})
	require.Error(t, err)
	close(stop)
	wg.Wait()
	used, q := b.inUse()
	assert.Zero(t, used)
	assert.Zero(t, q)
	assert.LessOrEqual(t, peak.Load(), transformMemory(f, len(png90), s.policy))
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

// Many concurrent admissions never hold more than the capacity.
func TestMemoryBudgetNeverExceedsCapacity(t *testing.T) {
	b := newMemoryBudget(100)
	var held, peak atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			n := int64(1 + i%60)
			release, err := b.acquire(context.Background(), n, time.Minute)
			if !assert.NoError(t, err) {
				return
			}
			v := held.Add(n)
			for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
			}
			time.Sleep(time.Millisecond)
			held.Add(-n)
			release()
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, peak.Load(), int64(100))
	used, q := b.inUse()
	assert.Zero(t, used)
	assert.Zero(t, q)
}

var defaultPolicy = NormalizationPolicy{MaxDimension: DefaultNormalizedImageMaxDimension, MaxBytes: DefaultNormalizedImageMaxBytes}
