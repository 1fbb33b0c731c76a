package kernel_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// docs/kernel.md "Events and dispatch modes": Async listeners are delivered through EventBus, one
// topic per listener, transactionally, so each listener sees events in emit order; Close drains
// them.
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
