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

// Cordis dispose.spec "dispose by plugin": disposing a plugin runs its disposers once; a second
// Dispose does nothing.
func TestDisposeIsIdempotent(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var calls atomic.Int32
	f := kerneltest.RequireLoad(t, root, plugin("once", func(kc *kernel.Context) error {
		return kc.OnDispose(func(context.Context) error { calls.Add(1); return nil })
	}), nil)
	kerneltest.RequireActive(t, f)
	assert.Zero(t, calls.Load())

	require.NoError(t, f.Dispose())
	kerneltest.RequireDisposed(t, f)
	assert.EqualValues(t, 1, calls.Load())
	require.NoError(t, f.Dispose())
	assert.EqualValues(t, 1, calls.Load())
}

// Cordis dispose.spec "yield dispose" (3, 2, 1). Deviation (docs/kernel.md "Differences from
// Cordis"): a plugin's effects of every kind (hooks, listeners, services, child plugins) are undone
// strictly in reverse registration order and sequentially; Cordis starts top-level effects
// concurrently after a microtask.
func TestDisposeUndoesEffectsInReverseOrder(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[string]("test/dispose-order")
	svc := kernel.NewService[string]("test.dispose-order")
	var tr trace
	listenersAt := map[string]int{}
	servicesAt := map[string]int{}
	probe := func(label string) func(context.Context) error {
		return func(context.Context) error {
			tr.add("%s", label)
			listenersAt[label] = k.ListenerCount()
			servicesAt[label] = k.ServiceCount()
			return nil
		}
	}
	child := plugin("child", func(kc *kernel.Context) error { return kc.OnDispose(probe("child")) })
	f := kerneltest.RequireLoad(t, root, plugin("parent", func(kc *kernel.Context) error {
		if err := kc.OnDispose(probe("1")); err != nil {
			return err
		}
		if _, err := e.On(kc, tr.listener("listener")); err != nil {
			return err
		}
		if _, err := svc.Provide(kc, "v"); err != nil {
			return err
		}
		if err := kc.OnDispose(probe("2")); err != nil {
			return err
		}
		if _, err := kc.Load(child, nil); err != nil {
			return err
		}
		return kc.OnDispose(probe("3"))
	}), nil)
	services := k.ServiceCount()

	kerneltest.RequireDispose(t, f)
	assert.Equal(t, []string{"3", "child", "2", "1"}, tr.take())
	// The listener and the service were registered between hooks 1 and 2.
	assert.Equal(t, map[string]int{"3": 1, "child": 1, "2": 1, "1": 0}, listenersAt)
	assert.Equal(t, map[string]int{"3": services, "child": services, "2": services, "1": services - 1}, servicesAt)
}

// Deviation (docs/kernel.md "Differences from Cordis"): disposers run one after another; the next
// one starts only when the previous returned, so a slow disposer delays the earlier-registered ones
// instead of overlapping them.
func TestDisposersRunSequentially(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var tr trace
	f := kerneltest.RequireLoad(t, root, plugin("sequential", func(kc *kernel.Context) error {
		if err := kc.OnDispose(tr.hook("first registered")); err != nil {
			return err
		}
		return kc.OnDispose(func(context.Context) error {
			tr.add("slow start")
			time.Sleep(20 * time.Millisecond)
			tr.add("slow end")
			return nil
		})
	}), nil)
	kerneltest.RequireDispose(t, f)
	assert.Equal(t, []string{"slow start", "slow end", "first registered"}, tr.take())
}

// Cordis fiber.spec "dispose error" logs disposer errors and resolves. Deviation (docs/kernel.md
// "Effects"): every disposer runs even when earlier ones fail, and Dispose returns their errors
// joined (and logs them).
func TestDisposeRunsAllDisposersAndJoinsErrors(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.ErrorLevel)
	errA, errB := errors.New("disposer a failed"), errors.New("disposer b failed")
	var tr trace
	f := kerneltest.RequireLoad(t, root, plugin("failing-cleanup", func(kc *kernel.Context) error {
		for _, fn := range []func(context.Context) error{
			func(context.Context) error { tr.add("a"); return errA },
			tr.hook("ok"),
			func(context.Context) error { tr.add("b"); return errB },
			func(context.Context) error { tr.add("panic"); panic("disposer panicked") },
		} {
			if err := kc.OnDispose(fn); err != nil {
				return err
			}
		}
		return nil
	}), nil)

	err := f.Dispose()
	require.Error(t, err)
	assert.ErrorIs(t, err, errA)
	assert.ErrorIs(t, err, errB)
	var pe *kernel.PanicError
	assert.ErrorAs(t, err, &pe, "a disposer panic becomes a *kernel.PanicError")
	assert.Equal(t, []string{"panic", "b", "ok", "a"}, tr.take())
	kerneltest.RequireDisposed(t, f)
	assert.NotZero(t, logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "disposer errors are logged")
	assert.NoError(t, f.Dispose(), "the second Dispose has nothing left to fail")
}

// Cordis dispose.spec "dispose manually": the Disposer returned by a registration undoes it early and
// is idempotent; the plugin's own dispose later does not run it again.
func TestDisposerUndoesOneRegistrationEarly(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[int]("test/manual")
	var calls atomic.Int32
	var undo kernel.Disposer
	f := kerneltest.RequireLoad(t, root, plugin("manual", func(kc *kernel.Context) error {
		var err error
		undo, err = e.On(kc, func(context.Context, int) error { calls.Add(1); return nil })
		if err != nil {
			return err
		}
		_, err = e.On(kc, func(context.Context, int) error { calls.Add(10); return nil })
		return err
	}), nil)
	require.NoError(t, e.Emit(bg, root, 0))
	assert.EqualValues(t, 11, calls.Load())

	require.NoError(t, undo())
	require.NoError(t, undo())
	assert.Equal(t, 1, e.Listeners(root))
	require.NoError(t, e.Emit(bg, root, 0))
	assert.EqualValues(t, 21, calls.Load())

	kerneltest.RequireDispose(t, f)
	assert.Equal(t, 0, e.Listeners(root))
}

// Cordis dispose.spec "effect with error" and fiber.spec "plugin error": when Apply fails, what it
// registered before the error is rolled back (in reverse), the instance is Failed with the error
// stored, and Load returns it.
func TestApplyFailureRollsBackAndMarksFailed(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.ErrorLevel)
	e := kernel.NewEvent[string]("test/rollback")
	svc := kernel.NewService[int]("test.rollback")
	boom := errors.New("plugin error")
	var tr trace
	var kcSeen *kernel.Context
	f, err := root.Load(plugin("broken", func(kc *kernel.Context) error {
		kcSeen = kc
		if err := kc.OnDispose(tr.hook("cleanup 1")); err != nil {
			return err
		}
		if _, err := e.On(kc, tr.listener("listener")); err != nil {
			return err
		}
		if _, err := svc.Provide(kc, 1); err != nil {
			return err
		}
		if _, err := kc.Load(plugin("broken-child", func(kc *kernel.Context) error {
			return kc.OnDispose(tr.hook("child cleanup"))
		}), nil); err != nil {
			return err
		}
		if err := kc.OnDispose(tr.hook("cleanup 2")); err != nil {
			return err
		}
		return boom
	}), nil)
	require.ErrorIs(t, err, boom)
	kerneltest.RequireFailed(t, f)
	assert.ErrorIs(t, f.Err(), boom)
	assert.Equal(t, []string{"cleanup 2", "child cleanup", "cleanup 1"}, tr.take())
	assert.Equal(t, 0, e.Listeners(root))
	_, ok := svc.Get(root)
	assert.False(t, ok, "service provided before the failure must be withdrawn")
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Empty(t, tr.take())
	assert.NotZero(t, logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "the failure is logged")

	_, err = e.On(kcSeen, tr.listener("late"))
	assert.ErrorIs(t, err, kernel.ErrInactive, "the failed load's context is inactive")
}

// A panicking Apply is recovered into a *kernel.PanicError and handled like a failed Apply
// (docs/kernel.md "Modules and instances").
func TestApplyPanicRollsBackAndMarksFailed(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/apply-panic")
	f, err := root.Load(plugin("panicky", func(kc *kernel.Context) error {
		if _, err := e.On(kc, func(context.Context, string) error { return nil }); err != nil {
			return err
		}
		panic("apply panicked")
	}), nil)
	var pe *kernel.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "apply panicked", pe.Value)
	kerneltest.RequireFailed(t, f)
	assert.ErrorAs(t, f.Err(), &pe)
	assert.Equal(t, 0, e.Listeners(root))
}

// kc.Context() is cancelled when the load ends, so goroutines a plugin started stop (docs/kernel.md
// "Effects").
func TestDisposeCancelsPluginContext(t *testing.T) {
	root := kerneltest.NewRoot(t)
	stopped := make(chan struct{})
	var pctx context.Context
	f := kerneltest.RequireLoad(t, root, plugin("worker", func(kc *kernel.Context) error {
		pctx = kc.Context()
		go func() { <-kc.Context().Done(); close(stopped) }()
		return nil
	}), nil)
	require.NoError(t, pctx.Err())
	kerneltest.RequireDispose(t, f)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("plugin goroutine not stopped by Dispose")
	}
	assert.ErrorIs(t, pctx.Err(), context.Canceled)
}

// Cordis plugin.spec "root dispose": Close disposes every plugin, the most recently loaded first,
// each exactly once; a second Close does nothing.
func TestCloseDisposesPluginsInReverseLoadOrder(t *testing.T) {
	k := kerneltest.NewKernel(t)
	var tr trace
	var fibers []*kernel.Fiber
	for _, id := range []string{"a", "b", "c"} {
		fibers = append(fibers, kerneltest.RequireLoad(t, k.Root(), plugin(id, func(kc *kernel.Context) error {
			return kc.OnDispose(tr.hook(id))
		}), nil))
	}
	require.NoError(t, k.Close(bg))
	assert.Equal(t, []string{"c", "b", "a"}, tr.take())
	for _, f := range fibers {
		kerneltest.RequireDisposed(t, f)
	}
	assert.Empty(t, k.Fibers())
	require.NoError(t, k.Close(bg))
	assert.Empty(t, tr.take())

	_, err := k.Root().Load(noop("after-close"), nil)
	assert.ErrorIs(t, err, kernel.ErrInactive, "the root context is inactive after Close")
}
