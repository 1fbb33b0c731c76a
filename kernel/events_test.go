package kernel_test

import (
	"context"
	"errors"
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

// A key dispatched while nobody listened remembers that it has no listener; a listener
// registered afterwards still runs on the next dispatch (the remembered absence is dropped).
func TestListenerAddedAfterDispatchWithoutListenerRuns(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[int]("test/late")
	w := kernel.NewWaterfall[int, int]("test/late-wf")
	for range 2 {
		require.NoError(t, e.Emit(bg, root, 1))
		got, err := w.Run(bg, root, 1, func() (int, error) { return 1, nil })
		require.NoError(t, err)
		require.Equal(t, 1, got)
	}
	var calls atomic.Int32
	mustOn(t, e, root, func(context.Context, int) error { calls.Add(1); return nil })
	_, err := w.On(root, func(_ context.Context, p int, next func() (int, error)) (int, error) {
		n, err := next()
		return n + 10, err
	})
	require.NoError(t, err)
	require.NoError(t, e.Emit(bg, root, 1))
	assert.EqualValues(t, 1, calls.Load())
	got, err := w.Run(bg, root, 1, func() (int, error) { return 1, nil })
	require.NoError(t, err)
	assert.Equal(t, 11, got)
}

// Cordis events.spec "ctx.once()": a once listener runs a single time; it is removed before it is
// invoked, so it no longer counts while it runs, and a failing once listener is removed too.
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

// Cordis's order: listeners run in registration order and Prepend puts a listener first; among
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

// In Cordis a plugin that reloads re-registers at the end. Deviation (docs/kernel.md "Events and
// dispatch modes", Order): listener order follows the composition rank of the owning plugin, so a
// plugin keeps its place when it reloads (here after its injected service goes away and comes back)
// and a plugin loaded later with a lower rank still runs first.
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
// (docs/kernel.md "Differences from Cordis"): Emit runs every listener and returns the errors
// joined.
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

// A listener panic is recovered into a *kernel.PanicError that follows the error rules of the
// mode: for emit, the other listeners still run (docs/kernel.md "Events and dispatch modes").
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

// Cordis copies the listener list: a listener registered during a dispatch is not called
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

// Cordis still calls a listener disposed mid-dispatch by an earlier listener. Deviation
// (docs/kernel.md "Differences from Cordis"): the kernel skips listeners whose plugin instance is
// no longer active.
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

// Dispatch runs with no kernel lock held (docs/kernel.md "Events and dispatch modes"): a listener
// may emit, register, load and dispose plugins without deadlock.
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

// The order key (docs/kernel.md "Events and dispatch modes"): a child plugin's listeners take the
// composition rank of the entry that loaded it, so a child of an earlier entry runs before a later
// entry's listener even when registered after it.
func TestChildListenersTakeTheirEntryRank(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/child-rank")
	var tr trace
	kerneltest.RequireLoad(t, root, plugin("later-entry", func(kc *kernel.Context) error {
		_, err := e.On(kc, tr.listener("later entry"))
		return err
	}), nil, kernel.Rank(2))
	kerneltest.RequireLoad(t, root, plugin("earlier-entry", func(kc *kernel.Context) error {
		_, err := kc.Load(plugin("earlier-child", func(kc *kernel.Context) error {
			_, err := e.On(kc, tr.listener("earlier child"))
			return err
		}), nil)
		return err
	}), nil, kernel.Rank(1))
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"earlier child", "later entry"}, tr.take())
}

// The order key (band, rank, seq): the Prepend band comes before every rank, so a prepended
// listener of a later entry still runs before an earlier entry's ordinary listener.
func TestPrependBandPrecedesCompositionRank(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/prepend-rank")
	var tr trace
	kerneltest.RequireLoad(t, root, plugin("early", func(kc *kernel.Context) error {
		_, err := e.On(kc, tr.listener("early"))
		return err
	}), nil, kernel.Rank(1))
	kerneltest.RequireLoad(t, root, plugin("late", func(kc *kernel.Context) error {
		if _, err := e.On(kc, tr.listener("late")); err != nil {
			return err
		}
		_, err := e.On(kc, tr.listener("late prepended"), kernel.Prepend())
		return err
	}), nil, kernel.Rank(2))
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"late prepended", "early", "late"}, tr.take())
}

type ctxKey struct{}

// Listeners receive the emitter's context, values and cancellation included (docs/kernel.md
// "Events and dispatch modes").
func TestListenerReceivesEmitterContext(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/context")
	var got any
	var cancelled bool
	mustOn(t, e, root, func(ctx context.Context, _ string) error {
		got = ctx.Value(ctxKey{})
		cancelled = ctx.Err() != nil
		return nil
	})
	ctx, cancel := context.WithCancel(context.WithValue(bg, ctxKey{}, "session-1"))
	cancel()
	require.NoError(t, e.Emit(ctx, root, ""))
	assert.Equal(t, "session-1", got)
	assert.True(t, cancelled)
}
