package kernel_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// docs/kernel.md "Asynchronous listeners": each Async listener sees every event in emit order,
// from its own queue; Close drains them.
func TestAsyncListenersReceiveEventsInOrderAndCloseDrains(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[int]("test/async")
	const n = 200
	var a, b trace
	var syncCalls atomic.Int32
	slow := func(r *trace) func(context.Context, int) error {
		return func(_ context.Context, i int) error {
			if i%50 == 0 {
				time.Sleep(time.Millisecond)
			}
			r.add("%d", i)
			return nil
		}
	}
	mustOn(t, e, root, slow(&a), kernel.Async())
	mustOn(t, e, root, slow(&b), kernel.Async())
	mustOn(t, e, root, func(context.Context, int) error { syncCalls.Add(1); return nil })
	assert.Equal(t, 3, e.Listeners(root))

	for i := range n {
		require.NoError(t, e.Emit(bg, root, i))
	}
	assert.EqualValues(t, n, syncCalls.Load(), "sync listeners run before Emit returns")
	require.NoError(t, k.Close(bg))

	want := make([]string, n)
	for i := range want {
		want[i] = strconv.Itoa(i)
	}
	assert.Equal(t, want, a.take(), "listener a: all events, in order, after Close")
	assert.Equal(t, want, b.take(), "listener b: all events, in order, after Close")
}

// EventBus crashes the process on a panicking async handler; the kernel recovers it and the
// listener keeps receiving later events (docs/kernel.md "Events and dispatch modes").
func TestAsyncListenerPanicIsRecovered(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[int]("test/async-panic")
	var got trace
	mustOn(t, e, root, func(_ context.Context, i int) error {
		if i == 1 {
			panic("async panicked")
		}
		got.add("%d", i)
		return nil
	}, kernel.Async())
	for i := range 3 {
		require.NoError(t, e.Emit(bg, root, i))
	}
	_ = k.Close(bg)
	assert.Equal(t, []string{"0", "2"}, got.take())
}

// Async listeners are effects like any other: disposing their plugin removes them, and no event
// emitted after Dispose returned reaches them. Events emitted before may or may not be delivered
// (the stale-listener rule), but those delivered are an in-order prefix.
func TestAsyncListenerRemovedWithItsPlugin(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[int]("test/async-dispose")
	var got trace
	f := kerneltest.RequireLoad(t, root, plugin("async-owner", func(kc *kernel.Context) error {
		_, err := e.On(kc, func(_ context.Context, i int) error { got.add("%d", i); return nil }, kernel.Async())
		return err
	}), nil)
	assert.Equal(t, 1, e.Listeners(root))
	for i := range 10 {
		require.NoError(t, e.Emit(bg, root, i))
	}
	kerneltest.RequireDispose(t, f)
	assert.Equal(t, 0, e.Listeners(root))
	for i := 10; i < 20; i++ {
		require.NoError(t, e.Emit(bg, root, i))
	}
	require.NoError(t, k.Close(bg))
	seen := got.take()
	require.LessOrEqual(t, len(seen), 10, "events emitted after Dispose were delivered: %v", seen)
	for i, s := range seen {
		assert.Equal(t, strconv.Itoa(i), s)
	}
}

// An async listener runs after Emit returned, so it gets the emitter's context values without its
// cancellation (context.WithoutCancel): a request that ends does not cancel its observers.
func TestAsyncListenerGetsValuesWithoutCancellation(t *testing.T) {
	k := kerneltest.NewKernel(t)
	e := kernel.NewEvent[int]("test/async-context")
	type result struct {
		value     any
		cancelled bool
	}
	got := make(chan result, 1)
	mustOn(t, e, k.Root(), func(ctx context.Context, _ int) error {
		got <- result{ctx.Value(ctxKey{}), ctx.Err() != nil}
		return nil
	}, kernel.Async())
	ctx, cancel := context.WithCancel(context.WithValue(bg, ctxKey{}, "request-7"))
	require.NoError(t, e.Emit(ctx, k.Root(), 1))
	cancel()
	require.NoError(t, k.Close(bg))
	select {
	case r := <-got:
		assert.Equal(t, result{"request-7", false}, r)
	default:
		t.Fatal("async listener not called before Close returned")
	}
}

// Kernel.Close waits for async delivery only as long as its context allows, then reports the
// context's error; the delivery still finishes later.
func TestCloseStopsWaitingForAsyncAtDeadline(t *testing.T) {
	k := kerneltest.NewKernel(t)
	e := kernel.NewEvent[int]("test/async-blocked")
	release := make(chan struct{})
	finished := make(chan struct{})
	mustOn(t, e, k.Root(), func(context.Context, int) error {
		<-release
		close(finished)
		return nil
	}, kernel.Async())
	require.NoError(t, e.Emit(bg, k.Root(), 1))

	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, k.Close(ctx), context.DeadlineExceeded)
	close(release)
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked async listener never finished")
	}
	assert.NoError(t, k.Close(bg), "a second Close drains what is left")
}

// blocker is an async listener that records each event and blocks on its first one until
// released, telling the test when it is blocked.
type blocker struct {
	got     trace
	entered chan struct{}
	release chan struct{}
}

func newBlocker() *blocker {
	return &blocker{entered: make(chan struct{}), release: make(chan struct{})}
}

func (b *blocker) listen(_ context.Context, i int) error {
	if i == 0 {
		close(b.entered)
		<-b.release
	}
	b.got.add("%d", i)
	return nil
}

// blockedOn registers a blocker on e in kc with opts, emits 0 through root and returns once the
// listener is blocked in it.
func blockedOn(t *testing.T, e *kernel.Event[int], root, kc *kernel.Context, opts ...kernel.ListenOption) *blocker {
	t.Helper()
	b := newBlocker()
	mustOn(t, e, kc, b.listen, append(opts, kernel.Async())...)
	require.NoError(t, e.Emit(bg, root, 0))
	<-b.entered
	return b
}

func upTo(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

// docs/kernel.md "Asynchronous listeners": an emit never waits for an Async listener. While the
// listener is blocked in its first event, every later Emit returns; the listener then gets them
// all, in order.
func TestAsyncListenerNeverDelaysTheEmitter(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[int]("test/async-blocked-emitter")
	b := blockedOn(t, e, root, root)
	within(t, 10*time.Second, func() {
		for i := 1; i < 50; i++ {
			require.NoError(t, e.Emit(bg, root, i))
		}
	})
	close(b.release)
	require.NoError(t, k.Close(bg))
	assert.Equal(t, upTo(50), b.got.take())
	assert.Zero(t, k.AsyncDropped())
}

// docs/kernel.md "Asynchronous listeners": an event that finds the listener's queue full is
// dropped (the newest goes, the queued ones stay), counted by Kernel.AsyncDropped, and logged at
// warn level on the listener's logger at the 1st, 10th, 100th... drop.
func TestAsyncQueueOverflowDropsNewestCountedAndLogged(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.WarnLevel)
	k := root.Kernel()
	e := kernel.NewEvent[int]("test/async-overflow")
	b := blockedOn(t, e, root, root, kernel.AsyncQueue(2))
	for i := 1; i <= 13; i++ { // 1 and 2 are queued, 3..13 find the queue full
		require.NoError(t, e.Emit(bg, root, i))
	}
	assert.EqualValues(t, 11, k.AsyncDropped())
	warns := logsContaining(logs, "async listener queue full: event dropped", "test/async-overflow")
	require.Len(t, warns, 2, "warned at the 1st and the 10th drop")
	assert.EqualValues(t, 1, warns[0].ContextMap()["dropped"])
	assert.EqualValues(t, 10, warns[1].ContextMap()["dropped"])
	assert.EqualValues(t, 2, warns[0].ContextMap()["queue"])
	close(b.release)
	require.NoError(t, k.Close(bg))
	assert.Equal(t, upTo(3), b.got.take())
}

// The default queue holds kernel.DefaultAsyncQueue events besides the one being delivered.
func TestAsyncQueueDefaultSize(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[int]("test/async-default-queue")
	b := blockedOn(t, e, root, root)
	for i := 1; i <= kernel.DefaultAsyncQueue+1; i++ {
		require.NoError(t, e.Emit(bg, root, i))
	}
	assert.EqualValues(t, 1, k.AsyncDropped())
	close(b.release)
	require.NoError(t, k.Close(bg))
	assert.Equal(t, upTo(kernel.DefaultAsyncQueue+1), b.got.take())
}

// docs/kernel.md "Asynchronous listeners": disposing an Async listener's plugin does not wait for
// the delivery in progress; what is still queued is discarded (logged with its count), nothing
// more reaches the listener, and its goroutine ends when the delivery in progress returns (the
// package's goleak check). The Disposer that On returns does the same for one listener.
func TestAsyncListenerDisposeDrainsItsQueue(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.InfoLevel)
	k := root.Kernel()
	e := kernel.NewEvent[int]("test/async-dispose-queue")
	b := newBlocker()
	f := kerneltest.RequireLoad(t, root, plugin("async-queue-owner", func(kc *kernel.Context) error {
		_, err := e.On(kc, b.listen, kernel.Async())
		return err
	}), nil)
	require.NoError(t, e.Emit(bg, root, 0))
	<-b.entered
	require.NoError(t, e.Emit(bg, root, 1))
	require.NoError(t, e.Emit(bg, root, 2))
	within(t, 10*time.Second, func() { kerneltest.RequireDispose(t, f) })
	require.NoError(t, e.Emit(bg, root, 3))
	close(b.release)
	require.NoError(t, k.Close(bg))
	assert.Equal(t, []string{"0"}, b.got.take())
	discarded := logsContaining(logs, "async listener removed: undelivered events discarded", "test/async-dispose-queue")
	require.Len(t, discarded, 1)
	assert.EqualValues(t, 2, discarded[0].ContextMap()["discarded"])

	k2 := kerneltest.NewKernel(t)
	got := make(chan int, 4)
	d := mustOn(t, e, k2.Root(), func(_ context.Context, i int) error { got <- i; return nil }, kernel.Async())
	require.NoError(t, e.Emit(bg, k2.Root(), 4))
	assert.Equal(t, 4, <-got)
	require.NoError(t, d())
	require.NoError(t, e.Emit(bg, k2.Root(), 5)) // removed: goes nowhere
	assert.Zero(t, e.Listeners(k2.Root()))
	kerneltest.VerifyNone(t)
}

// An Async listener may emit the event it listens to: its emit only queues (with the transactional
// EventBus handler this deadlocked, the publish waiting for the handler that made it).
func TestAsyncListenerMayEmitItsOwnEvent(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[int]("test/async-reemit")
	var got trace
	mustOn(t, e, root, func(ctx context.Context, i int) error {
		got.add("%d", i)
		if i < 9 {
			return e.Emit(ctx, root, i+1)
		}
		return nil
	}, kernel.Async())
	require.NoError(t, e.Emit(bg, root, 0))
	within(t, 10*time.Second, func() { require.NoError(t, k.Close(bg)) })
	assert.Equal(t, upTo(10), got.take())
}
