package kernel_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

type fooConfig struct{ Foo bool }

// Cordis fiber.spec "plugin error": the same module loaded twice, failing with one config and not
// the other, leaves one Failed instance (whose listener is rolled back) and one Active instance;
// the error is logged once.
func TestPluginErrorFailsOnlyThatInstance(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.ErrorLevel)
	e := kernel.NewEvent[string]("test/plugin-error")
	var calls atomic.Int32
	mod := kernel.Define("maybe-broken", func(kc *kernel.Context, cfg fooConfig) error {
		if _, err := e.On(kc, func(context.Context, string) error { calls.Add(1); return nil }); err != nil {
			return err
		}
		if !cfg.Foo {
			return errors.New("plugin error")
		}
		return nil
	})
	f1, err1 := root.Load(mod, nil)
	f2, err2 := root.Load(mod, fooConfig{Foo: true})
	require.ErrorContains(t, err1, "plugin error")
	require.NoError(t, err2)
	kerneltest.RequireFailed(t, f1)
	kerneltest.RequireActive(t, f2)
	assert.Len(t, logsContaining(logs.FilterLevelExact(zapcore.ErrorLevel), "plugin error"), 1)

	require.NoError(t, e.Emit(bg, root, ""))
	assert.EqualValues(t, 1, calls.Load())
}

// Cordis fiber.spec "failed fiber does not re-enter on dependency refresh": a Failed instance stays
// Failed, without running Apply again, when its injected service goes away and comes back.
func TestFailedFiberDoesNotReenterOnDependencyRefresh(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[int]("test.refresh")
	var applied atomic.Int32
	provider := func(v int) kernel.Module {
		return plugin("refresh-provider", func(kc *kernel.Context) error { _, err := svc.Provide(kc, v); return err })
	}
	p := kerneltest.RequireLoad(t, root, provider(1), nil)
	f, err := root.Load(plugin("always-fails", func(*kernel.Context) error {
		applied.Add(1)
		return errors.New("boom")
	}, svc.Dep()), nil)
	require.Error(t, err)
	kerneltest.RequireFailed(t, f)

	kerneltest.RequireDispose(t, p)
	kerneltest.RequireFailed(t, f)
	kerneltest.RequireLoad(t, root, provider(2), nil)
	assert.EqualValues(t, 1, applied.Load())
	kerneltest.RequireFailed(t, f)
}

// Cordis fiber.spec "update recovers a failed fiber": Update runs Apply again and a success makes
// the instance Active with no stored error.
func TestUpdateRecoversFailedFiber(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var applied atomic.Int32
	mod := kernel.Define("recovering", func(_ *kernel.Context, cfg fooConfig) error {
		applied.Add(1)
		if !cfg.Foo {
			return errors.New("boom")
		}
		return nil
	})
	f, err := root.Load(mod, fooConfig{})
	require.Error(t, err)
	kerneltest.RequireFailed(t, f)

	require.NoError(t, f.Update(fooConfig{Foo: true}))
	assert.EqualValues(t, 2, applied.Load())
	kerneltest.RequireActive(t, f)
	assert.NoError(t, f.Err())
}

// Cordis fiber.spec "update surfaces a failed reload to its caller" and "update surfaces a failed
// recovery": Update returns the Apply error and leaves the instance Failed.
func TestUpdateSurfacesFailedReload(t *testing.T) {
	root := kerneltest.NewRoot(t)
	mod := kernel.Define("reload-fails", func(_ *kernel.Context, cfg fooConfig) error {
		if cfg.Foo {
			return errors.New("retry failure")
		}
		return nil
	})
	f := kerneltest.RequireLoad(t, root, mod, fooConfig{})
	kerneltest.RequireActive(t, f)
	err := f.Update(fooConfig{Foo: true})
	require.ErrorContains(t, err, "retry failure")
	kerneltest.RequireFailed(t, f)
	assert.ErrorContains(t, f.Err(), "retry failure")

	err = f.Update(fooConfig{Foo: true})
	require.ErrorContains(t, err, "retry failure", "a failed recovery is surfaced too")
	kerneltest.RequireFailed(t, f)
}

// Cordis fiber.spec "update config on wrapped fiber": each Update undoes the previous load's effects
// and runs Apply with the new config, which the fiber then reports.
func TestUpdateRestartsWithNewConfig(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/update")
	var tr trace
	mod := kernel.Define("updatable", func(kc *kernel.Context, cfg greeterConfig) error {
		tr.add("apply %s", cfg.Greeting)
		if _, err := e.On(kc, tr.listener("listener "+cfg.Greeting)); err != nil {
			return err
		}
		return kc.OnDispose(tr.hook("dispose " + cfg.Greeting))
	})
	f := kerneltest.RequireLoad(t, root, mod, greeterConfig{Greeting: "hello"})
	require.NoError(t, f.Update(greeterConfig{Greeting: "world"}))
	require.NoError(t, f.Update(greeterConfig{Greeting: "!!!"}))
	assert.Equal(t, []string{"apply hello", "dispose hello", "apply world", "dispose world", "apply !!!"}, tr.take())
	assert.Equal(t, greeterConfig{Greeting: "!!!"}, f.Config())
	assert.Equal(t, 1, e.Listeners(root))
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Equal(t, []string{"listener !!!"}, tr.take())
	kerneltest.RequireActive(t, f)
}

// Cordis fiber.spec "keep a running plugin on update": an invalid config passed to Update is refused
// before anything is torn down; the instance stays Active with its old config.
func TestUpdateWithInvalidConfigKeepsRunningPlugin(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var applied atomic.Int32
	mod := kernel.Define("keeps-running", func(*kernel.Context, greeterConfig) error { applied.Add(1); return nil })
	f := kerneltest.RequireLoad(t, root, mod, greeterConfig{Limit: 1})
	err := f.Update(greeterConfig{Limit: -1})
	require.ErrorContains(t, err, "limit must not be negative")
	assert.EqualValues(t, 1, applied.Load())
	kerneltest.RequireActive(t, f)
	assert.Equal(t, greeterConfig{Limit: 1}, f.Config())
}

// Update on a disposed instance is refused (disposed is for good: docs/kernel.md "Modules and
// instances").
func TestUpdateAfterDisposeIsRefused(t *testing.T) {
	root := kerneltest.NewRoot(t)
	f := kerneltest.RequireLoad(t, root, noop("gone"), nil)
	kerneltest.RequireDispose(t, f)
	assert.ErrorIs(t, f.Update(nil), kernel.ErrInactive)
	kerneltest.RequireDisposed(t, f)
}

// Cordis fiber.spec "inertia lock" (transitions are serialised per fiber): many goroutines disposing
// the same instance at once run its disposers exactly once and all return.
func TestConcurrentDisposeRunsDisposersOnce(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var calls atomic.Int32
	f := kerneltest.RequireLoad(t, root, plugin("contended", func(kc *kernel.Context) error {
		return kc.OnDispose(func(context.Context) error { calls.Add(1); return nil })
	}), nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.NoError(t, f.Dispose()) })
	}
	wg.Wait()
	assert.EqualValues(t, 1, calls.Load())
	kerneltest.RequireDisposed(t, f)
}

// The six states of docs/kernel.md "Modules and instances", printed lower-case.
func TestStateStrings(t *testing.T) {
	for state, want := range map[kernel.State]string{
		kernel.Pending:   "pending",
		kernel.Loading:   "loading",
		kernel.Active:    "active",
		kernel.Failed:    "failed",
		kernel.Unloading: "unloading",
		kernel.Disposed:  "disposed",
	} {
		assert.Equal(t, want, state.String())
	}
}

// Cordis plugin.spec "root dispose" (uids): every instance gets its own id, distinct from the root's.
func TestFiberIDsAreUnique(t *testing.T) {
	root := kerneltest.NewRoot(t)
	seen := map[uint64]bool{root.Fiber().ID(): true}
	for range 5 {
		f := kerneltest.RequireLoad(t, root, noop("numbered"), nil)
		assert.False(t, seen[f.ID()], "id %d reused", f.ID())
		seen[f.ID()] = true
	}
}

// Apply runs while the instance is Loading; its state is Active only after Apply returns
// (docs/kernel.md "Modules and instances").
func TestApplyRunsWhileLoading(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var during kernel.State = -1
	f := kerneltest.RequireLoad(t, root, plugin("observer", func(kc *kernel.Context) error {
		during = kc.Fiber().State()
		return nil
	}), nil)
	assert.Equal(t, kernel.Loading, during)
	kerneltest.RequireActive(t, f)
}

// Update of an instance that waits for a service stores the new config and stays Pending; the
// instance applies with that config once the service arrives.
func TestUpdatePendingFiberAppliesNewConfigLater(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[int]("test.pending-update")
	var got []string
	mod := kernel.Define("pending-updatable", func(_ *kernel.Context, cfg greeterConfig) error {
		got = append(got, cfg.Greeting)
		return nil
	}, svc.Dep())
	f := kerneltest.RequireLoad(t, root, mod, greeterConfig{Greeting: "first"})
	kerneltest.RequirePending(t, f)
	require.NoError(t, f.Update(greeterConfig{Greeting: "second"}))
	kerneltest.RequirePending(t, f)
	assert.Empty(t, got)

	_, err := svc.Provide(root, 1)
	require.NoError(t, err)
	kerneltest.RequireActive(t, f)
	assert.Equal(t, []string{"second"}, got)
}
