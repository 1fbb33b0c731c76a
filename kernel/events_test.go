package kernel_test

import (
	"context"
	"errors"
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

// Cordis events.spec "ctx.on()": a listener runs on every emit until its disposer is called.
func TestOnListenerRunsUntilDisposed(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/on")
	var calls atomic.Int32
	dispose := mustOn(t, e, root, func(context.Context, string) error { calls.Add(1); return nil })

	require.NoError(t, e.Emit(bg, root, "a"))
	assert.EqualValues(t, 1, calls.Load())
	require.NoError(t, e.Emit(bg, root, "b"))
	assert.EqualValues(t, 2, calls.Load())

	require.NoError(t, dispose())
	require.NoError(t, e.Emit(bg, root, "c"))
	assert.EqualValues(t, 2, calls.Load())
	assert.Equal(t, 0, e.Listeners(root))
	require.NoError(t, dispose(), "a Disposer is idempotent")
}

// Cordis events.spec "ctx.emit()" with no listener: emitting an event nobody listens to is a no-op.
func TestEmitWithoutListenerIsNoop(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[int]("test/none")
	assert.NoError(t, e.Emit(bg, root, 1))
	assert.Equal(t, 0, e.Listeners(root))
}

// Cordis events.spec "ctx.once()": a once listener runs a single time; it is removed before it is
// invoked (A.7), so it no longer counts while it runs, and a failing once listener is removed too.
func TestOnceListenerRunsOnceAndIsRemovedBeforeCall(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/once")
	var calls, countInside atomic.Int32
	countInside.Store(-1)
	dispose := mustOn(t, e, root, func(context.Context, string) error {
		calls.Add(1)
		countInside.Store(int32(e.Listeners(root)))
		return errors.New("once failed")
	}, kernel.Once())
	assert.Equal(t, 1, e.Listeners(root))

	assert.Error(t, e.Emit(bg, root, "a"))
	assert.NoError(t, e.Emit(bg, root, "b"))
	assert.EqualValues(t, 1, calls.Load())
	assert.EqualValues(t, 0, countInside.Load(), "once listener still registered while it ran")
	assert.Equal(t, 0, e.Listeners(root))
	require.NoError(t, dispose())
	assert.EqualValues(t, 1, calls.Load())
}

// Cordis A.7 order: listeners run in registration order and Prepend puts a listener first; among
// prepended listeners the last prepended runs first (kernel.Prepend keeps this Cordis rule within
// one composition rank).
func TestListenerOrderRegistrationOrderPrependFirst(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/order")
	var tr trace
	mustOn(t, e, root, tr.listener("a"))
	mustOn(t, e, root, tr.listener("b"))
	mustOn(t, e, root, tr.listener("p1"), kernel.Prepend())
	mustOn(t, e, root, tr.listener("c"))
	mustOn(t, e, root, tr.listener("p2"), kernel.Prepend())

	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"p2", "p1", "a", "b", "c"}, tr.take())
}

// Cordis A.9.3 says a plugin that reloads re-registers at the end. Deviation (C.5): listener order
// follows the composition rank of the owning plugin, so a plugin keeps its place when it reloads
// (here after its injected service goes away and comes back) and a plugin loaded later with a
// lower rank still runs first.
func TestListenersKeepCompositionRankAcrossReload(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/rank")
	svc := kernel.NewService[int]("test.rank-svc")
	var tr trace
	provider := plugin("provider", func(kc *kernel.Context) error { _, err := svc.Provide(kc, 1); return err })
	first := plugin("first", func(kc *kernel.Context) error { _, err := e.On(kc, tr.listener("first")); return err }, svc.Dep())
	second := plugin("second", func(kc *kernel.Context) error { _, err := e.On(kc, tr.listener("second")); return err })

	// second (rank 2) loads before first (rank 1), which also waits for its service.
	kerneltest.RequireLoad(t, root, second, nil, kernel.Rank(2))
	f1 := kerneltest.RequireLoad(t, root, first, nil, kernel.Rank(1))
	kerneltest.RequirePending(t, f1)
	p := kerneltest.RequireLoad(t, root, provider, nil, kernel.Rank(0))
	kerneltest.RequireActive(t, f1)
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"first", "second"}, tr.take(), "order by rank, not by activation")

	kerneltest.RequireDispose(t, p)
	kerneltest.RequirePending(t, f1)
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"second"}, tr.take())

	kerneltest.RequireLoad(t, root, provider, nil, kernel.Rank(0))
	kerneltest.RequireActive(t, f1)
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"first", "second"}, tr.take(), "a reloaded plugin keeps its place")

	// The same holds for a config update, which restarts the instance.
	require.NoError(t, f1.Update(nil))
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"first", "second"}, tr.take())
}

// Cordis events.spec "ctx.emit()" throws the first listener error and skips the rest. Deviation
// (C.8): Emit runs every listener and returns the errors joined.
func TestEmitRunsAllListenersAndJoinsErrors(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/emit-errors")
	errA, errC := errors.New("a failed"), errors.New("c failed")
	var tr trace
	mustOn(t, e, root, func(context.Context, string) error { tr.add("a"); return errA })
	mustOn(t, e, root, tr.listener("b"))
	mustOn(t, e, root, func(context.Context, string) error { tr.add("c"); return errC })
	mustOn(t, e, root, tr.listener("d"))

	err := e.Emit(bg, root, "")
	require.Error(t, err)
	assert.ErrorIs(t, err, errA)
	assert.ErrorIs(t, err, errC)
	assert.Equal(t, []string{"a", "b", "c", "d"}, tr.take())
}

// C.8: a listener panic is recovered into a *kernel.PanicError that follows the error rules of the
// mode: for emit, the other listeners still run.
func TestEmitListenerPanicBecomesPanicError(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/emit-panic")
	var tr trace
	mustOn(t, e, root, func(context.Context, string) error { panic("boom") })
	mustOn(t, e, root, tr.listener("after"))

	err := e.Emit(bg, root, "")
	var pe *kernel.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "boom", pe.Value)
	assert.NotEmpty(t, pe.Stack)
	assert.Equal(t, []string{"after"}, tr.take())

	// A panic with an error value stays reachable through errors.Is.
	sentinel := errors.New("sentinel")
	e2 := kernel.NewEvent[int]("test/emit-panic-error")
	mustOn(t, e2, root, func(context.Context, int) error { panic(sentinel) })
	err = e2.Emit(bg, root, 0)
	require.ErrorAs(t, err, &pe)
	assert.ErrorIs(t, err, sentinel)
}

// EmitContained is the emitter-side containment the harness does by hand for tools/result: errors
// and panics are logged at Warn and never returned, and every listener runs.
func TestEmitContainedLogsFailuresAtWarn(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.WarnLevel)
	e := kernel.NewEvent[string]("test/contained")
	var tr trace
	mustOn(t, e, root, func(context.Context, string) error { tr.add("err"); return errors.New("observer failed") })
	mustOn(t, e, root, func(context.Context, string) error { tr.add("panic"); panic("observer panicked") })
	mustOn(t, e, root, tr.listener("ok"))

	e.EmitContained(bg, root, "")
	assert.Equal(t, []string{"err", "panic", "ok"}, tr.take())
	warns := logs.FilterLevelExact(zapcore.WarnLevel)
	require.NotZero(t, warns.Len(), "contained failures must be logged at warn")
	assert.NotEmpty(t, logsContaining(warns, "observer failed"))
	assert.NotEmpty(t, logsContaining(warns, "observer panicked"))
}

// Cordis A.7 "the listener list is copied": a listener registered during a dispatch is not called
// by that dispatch, only by the next one.
func TestEmitUsesSnapshotOfListeners(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/snapshot")
	var tr trace
	var added atomic.Bool
	mustOn(t, e, root, func(context.Context, string) error {
		tr.add("first")
		if added.CompareAndSwap(false, true) {
			mustOn(t, e, root, tr.listener("late"))
		}
		return nil
	})
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"first"}, tr.take())
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"first", "late"}, tr.take())
}

// Cordis still calls a listener disposed mid-dispatch by an earlier listener (A.7). Deviation
// (C.5 "stale listeners"): the kernel skips listeners whose plugin instance is no longer active.
func TestEmitSkipsListenerOfPluginDisposedMidDispatch(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/stale")
	var tr trace
	var victim *kernel.Fiber
	mustOn(t, e, root, func(context.Context, string) error {
		tr.add("killer")
		return victim.Dispose()
	})
	victim = kerneltest.RequireLoad(t, root, plugin("victim", func(kc *kernel.Context) error {
		_, err := e.On(kc, tr.listener("victim"))
		return err
	}), nil)

	within(t, 5*time.Second, func() { assert.NoError(t, e.Emit(bg, root, "")) })
	assert.Equal(t, []string{"killer"}, tr.take())
	kerneltest.RequireDisposed(t, victim)
}

// Dispatch runs with no kernel lock held (DESIGN "Kernel decisions"): a listener may emit, register,
// load and dispose plugins without deadlock.
func TestListenerMayEmitRegisterLoadAndDispose(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[int]("test/reentrant")
	w := kernel.NewWaterfall[int, int]("test/reentrant-waterfall")
	var tr trace
	mustOn(t, e, root, func(ctx context.Context, depth int) error {
		tr.add("depth %d", depth)
		if depth > 0 {
			return nil
		}
		f, err := root.Load(plugin("nested", func(kc *kernel.Context) error {
			_, err := e.On(kc, func(context.Context, int) error { return nil })
			return err
		}), nil)
		if err != nil {
			return err
		}
		d, err := e.On(root, func(context.Context, int) error { return nil })
		if err != nil {
			return err
		}
		if _, err := w.Run(ctx, root, depth, func() (int, error) { return 0, e.Emit(ctx, root, depth+1) }); err != nil {
			return err
		}
		return errors.Join(d(), f.Dispose())
	})
	within(t, 5*time.Second, func() { assert.NoError(t, e.Emit(bg, root, 0)) })
	assert.Equal(t, []string{"depth 0", "depth 1"}, tr.take())
	assert.Equal(t, 1, e.Listeners(root))
}

// Cordis events.spec "ctx.waterfall()", first half: the first listener is outermost; each calls next
// and adds its value, and after the last listener the inner default runs: 1 + (1 + 2) = 4.
func TestWaterfallChainRunsOuterFirstThenInnerDefault(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[int, int]("test/waterfall")
	var tr trace
	add := func(label string) func(context.Context, int, func() (int, error)) (int, error) {
		return func(_ context.Context, v int, next func() (int, error)) (int, error) {
			tr.add("%s in", label)
			r, err := next()
			tr.add("%s out", label)
			return v + r, err
		}
	}
	_, err := w.On(root, add("cb1"))
	require.NoError(t, err)
	_, err = w.On(root, add("cb2"))
	require.NoError(t, err)

	got, err := w.Run(bg, root, 1, func() (int, error) { tr.add("inner"); return 2, nil })
	require.NoError(t, err)
	assert.Equal(t, 4, got)
	assert.Equal(t, []string{"cb1 in", "cb2 in", "inner", "cb2 out", "cb1 out"}, tr.take())
}

// Cordis events.spec "ctx.waterfall()", second half: a listener that returns without calling next
// short-circuits every later listener and the inner default: 1 + 1 + 1 = 3, cb4 never runs.
func TestWaterfallListenerThatSkipsNextShortCircuits(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[int, int]("test/waterfall-short")
	var calls [4]atomic.Int32
	chain := func(i int) func(context.Context, int, func() (int, error)) (int, error) {
		return func(_ context.Context, v int, next func() (int, error)) (int, error) {
			calls[i].Add(1)
			r, err := next()
			return v + r, err
		}
	}
	for _, fn := range []func(context.Context, int, func() (int, error)) (int, error){
		chain(0), chain(1),
		func(_ context.Context, v int, _ func() (int, error)) (int, error) { calls[2].Add(1); return v, nil },
		chain(3),
	} {
		_, err := w.On(root, fn)
		require.NoError(t, err)
	}
	var inner atomic.Int32
	got, err := w.Run(bg, root, 1, func() (int, error) { inner.Add(1); return 2, nil })
	require.NoError(t, err)
	assert.Equal(t, 3, got)
	assert.Equal(t, []int32{1, 1, 1, 0}, []int32{calls[0].Load(), calls[1].Load(), calls[2].Load(), calls[3].Load()})
	assert.Zero(t, inner.Load())
}

// A.7 "with zero listeners the inner default runs": how removing a policy degrades a tool.
func TestWaterfallWithoutListenerRunsInnerDefault(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[string, string]("test/waterfall-empty")
	got, err := w.Run(bg, root, "p", func() (string, error) { return "inner", nil })
	require.NoError(t, err)
	assert.Equal(t, "inner", got)

	innerErr := errors.New("inner failed")
	_, err = w.Run(bg, root, "p", func() (string, error) { return "", innerErr })
	assert.ErrorIs(t, err, innerErr)
}

// C.4 Decide: a decider never calls next, so neither later listeners nor the inner default run.
func TestWaterfallDeciderShortCircuits(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[string, string]("test/decide")
	var later atomic.Int32
	_, err := w.Decide(root, func(_ context.Context, p string) (string, error) { return "decided " + p, nil })
	require.NoError(t, err)
	_, err = w.On(root, func(_ context.Context, _ string, next func() (string, error)) (string, error) {
		later.Add(1)
		return next()
	})
	require.NoError(t, err)
	got, err := w.Run(bg, root, "x", func() (string, error) { t.Error("inner default ran"); return "", nil })
	require.NoError(t, err)
	assert.Equal(t, "decided x", got)
	assert.Zero(t, later.Load())
}

// C.8 Waterfall: errors travel up through next, no later listener runs after an error, and an outer
// listener may translate the error (same as Cordis).
func TestWaterfallErrorTravelsUpThroughNext(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[int, string]("test/waterfall-error")
	denied := errors.New("denied")
	var sawErr atomic.Value
	var after atomic.Int32
	_, err := w.On(root, func(_ context.Context, p int, next func() (string, error)) (string, error) {
		r, err := next()
		if err != nil {
			sawErr.Store(err)
			if p == 1 {
				return "translated", nil
			}
		}
		return r, err
	})
	require.NoError(t, err)
	_, err = w.On(root, func(context.Context, int, func() (string, error)) (string, error) { return "", denied })
	require.NoError(t, err)
	_, err = w.On(root, func(_ context.Context, _ int, next func() (string, error)) (string, error) {
		after.Add(1)
		return next()
	})
	require.NoError(t, err)

	got, err := w.Run(bg, root, 1, func() (string, error) { return "inner", nil })
	require.NoError(t, err)
	assert.Equal(t, "translated", got)
	assert.ErrorIs(t, sawErr.Load().(error), denied)

	_, err = w.Run(bg, root, 2, func() (string, error) { return "inner", nil })
	assert.ErrorIs(t, err, denied)
	assert.Zero(t, after.Load())
}

// C.8: a waterfall listener panic becomes a *kernel.PanicError travelling up like an error.
func TestWaterfallListenerPanicBecomesPanicError(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[int, int]("test/waterfall-panic")
	_, err := w.On(root, func(context.Context, int, func() (int, error)) (int, error) { panic("decider panicked") })
	require.NoError(t, err)
	_, err = w.Run(bg, root, 0, func() (int, error) { return 0, nil })
	var pe *kernel.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "decider panicked", pe.Value)
}

// C.5 single slot: with two live deciders on a SingleSlot waterfall, the first in the composition
// wins and the kernel logs a warning that names both plugins. A waterfall not declared single-slot
// logs nothing.
func TestSingleSlotWaterfallWarnsNamingBothPlugins(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.WarnLevel)
	single := kernel.NewWaterfall[string, string]("test/single-slot", kernel.SingleSlot())
	multi := kernel.NewWaterfall[string, string]("test/multi-slot")
	decider := func(id, answer string) kernel.Module {
		return plugin(id, func(kc *kernel.Context) error {
			fn := func(context.Context, string) (string, error) { return answer, nil }
			if _, err := single.Decide(kc, fn); err != nil {
				return err
			}
			_, err := multi.Decide(kc, fn)
			return err
		})
	}
	// The later entry loads first; the earlier entry must still win.
	kerneltest.RequireLoad(t, root, decider("policy-late", "late"), nil, kernel.Rank(2))
	kerneltest.RequireLoad(t, root, decider("policy-early", "early"), nil, kernel.Rank(1))

	inner := func() (string, error) { return "inner", nil }
	got, err := single.Run(bg, root, "", inner)
	require.NoError(t, err)
	assert.Equal(t, "early", got, "first in the composition wins")
	got, err = multi.Run(bg, root, "", inner)
	require.NoError(t, err)
	assert.Equal(t, "early", got)

	warns := logs.FilterLevelExact(zapcore.WarnLevel)
	assert.NotEmpty(t, logsContaining(warns, "policy-early", "policy-late"),
		"want a warning naming both deciders, got %d warnings: %v", warns.Len(), warns.All())
	assert.Empty(t, logsContaining(warns, "test/multi-slot"), "a waterfall without SingleSlot must not warn")
}

// Cordis events.spec "ctx.bail()": the first listener that reports handled stops the chain; with no
// listener the result is the zero value and not handled.
func TestBailStopsAtFirstHandled(t *testing.T) {
	root := kerneltest.NewRoot(t)
	b := kernel.NewBail[string, int]("test/bail")
	r, ok, err := b.Run(bg, root, "x")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Zero(t, r)

	var tr trace
	_, err = b.On(root, func(context.Context, string) (int, bool, error) { tr.add("pass"); return 7, false, nil })
	require.NoError(t, err)
	_, err = b.On(root, func(context.Context, string) (int, bool, error) { tr.add("handle"); return 42, true, nil })
	require.NoError(t, err)
	_, err = b.On(root, func(context.Context, string) (int, bool, error) { tr.add("never"); return 0, true, nil })
	require.NoError(t, err)

	r, ok, err = b.Run(bg, root, "x")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, 42, r)
	assert.Equal(t, []string{"pass", "handle"}, tr.take())
}

// Cordis events.spec "ctx.bail()" (throwing listener) and C.8: the first error stops the chain and
// is returned; a panic becomes a *kernel.PanicError and stops it too.
func TestBailStopsAtFirstErrorOrPanic(t *testing.T) {
	root := kerneltest.NewRoot(t)
	b := kernel.NewBail[int, int]("test/bail-error")
	failed := errors.New("message")
	var later atomic.Int32
	_, err := b.On(root, func(_ context.Context, p int) (int, bool, error) {
		if p == 1 {
			return 0, false, failed
		}
		panic("bail panicked")
	})
	require.NoError(t, err)
	_, err = b.On(root, func(context.Context, int) (int, bool, error) { later.Add(1); return 1, true, nil })
	require.NoError(t, err)

	_, _, err = b.Run(bg, root, 1)
	assert.ErrorIs(t, err, failed)
	_, _, err = b.Run(bg, root, 2)
	var pe *kernel.PanicError
	assert.ErrorAs(t, err, &pe)
	assert.Zero(t, later.Load())
}

// Cordis events.spec "ctx.parallel()": listeners run concurrently and a failing listener does not
// short-circuit the others; as in the harness's vendored copy (not upstream's Promise.all) all
// failures are returned, joined (C.8). A panic is one of the joined errors.
func TestParallelRunsConcurrentlyAndJoinsErrors(t *testing.T) {
	root := kerneltest.NewRoot(t)
	p := kernel.NewParallel[int]("test/parallel")
	require.NoError(t, p.Run(bg, root, 0), "no listener")

	const n = 3
	var started atomic.Int32
	all := make(chan struct{})
	errTest, errAsync := errors.New("test"), errors.New("async")
	wait := func() error {
		if started.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
			return nil
		case <-time.After(5 * time.Second):
			return errors.New("listeners did not run concurrently")
		}
	}
	var settled atomic.Bool
	fns := []func(context.Context, int) error{
		func(context.Context, int) error {
			if err := wait(); err != nil {
				return err
			}
			return errTest
		},
		func(context.Context, int) error {
			if err := wait(); err != nil {
				return err
			}
			settled.Store(true)
			return errAsync
		},
		func(context.Context, int) error {
			if err := wait(); err != nil {
				return err
			}
			panic("parallel panicked")
		},
	}
	for _, fn := range fns {
		_, err := p.On(root, fn)
		require.NoError(t, err)
	}
	err := p.Run(bg, root, 1)
	require.Error(t, err)
	assert.ErrorIs(t, err, errTest)
	assert.ErrorIs(t, err, errAsync)
	var pe *kernel.PanicError
	assert.ErrorAs(t, err, &pe)
	assert.True(t, settled.Load(), "Run returned before every listener finished")
}

// DESIGN "Kernel decisions": Async listeners are delivered through EventBus, one topic per listener,
// transactionally, so each listener sees events in emit order; Close drains them.
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

// C.12 "recovered panics": EventBus crashes the process on a panicking async handler; the kernel
// recovers it and the listener keeps receiving later events.
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
