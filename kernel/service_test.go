package kernel_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// store is a toy capability for the service tests.
type store struct{ name string }

// provides returns a module that provides v as svc.
func provides[T any](id string, svc *kernel.Service[T], v T) kernel.Module {
	return plugin(id, func(kc *kernel.Context) error { _, err := svc.Provide(kc, v); return err })
}

// consumer records, per load, the service value it got from Must, and its cleanups.
type consumer struct {
	tr      trace
	applied atomic.Int32
	kc      atomic.Pointer[kernel.Context]
}

func (c *consumer) module(id string, svc *kernel.Service[*store]) kernel.Module {
	return plugin(id, func(kc *kernel.Context) error {
		c.applied.Add(1)
		c.kc.Store(kc)
		s := svc.Must(kc)
		c.tr.add("apply %s", s.name)
		return kc.OnDispose(func(context.Context) error {
			// A dependent's cleanup runs while the service is still reachable (docs/kernel.md
			// "Services").
			got, ok := svc.Get(kc)
			if !ok {
				c.tr.add("cleanup without service")
				return nil
			}
			c.tr.add("cleanup %s", got.name)
			return nil
		})
	}, svc.Dep())
}

// Cordis service.spec "pending inject": a module that injects a service stays Pending, without running
// Apply, until the service is provided; then it loads.
func TestInjectStaysPendingUntilProvided(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.pending")
	var c consumer
	f := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)
	kerneltest.RequirePending(t, f)
	assert.Zero(t, c.applied.Load())

	kerneltest.RequireLoad(t, root, provides("provider", svc, &store{"one"}), nil)
	kerneltest.RequireActive(t, f)
	assert.Equal(t, []string{"apply one"}, c.tr.take())
}

// Cordis service.spec "pending inject" (blocked by Service.init); visibility is strict: a service
// counts only once its provider is Active, so a dependent does not load while the provider's Apply
// is still running, and a provider whose Apply fails never makes its service visible.
func TestServiceVisibleOnlyOnceProviderActive(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.visible")
	var c consumer
	dep := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)

	var appliedDuring int32 = -1
	var probedDuring = true
	f, err := root.Load(plugin("failing-provider", func(kc *kernel.Context) error {
		if _, err := svc.Provide(kc, &store{"never"}); err != nil {
			return err
		}
		return errors.New("init failed")
	}), nil)
	require.Error(t, err)
	kerneltest.RequireFailed(t, f)
	kerneltest.RequirePending(t, dep)

	kerneltest.RequireLoad(t, root, plugin("slow-provider", func(kc *kernel.Context) error {
		if _, err := svc.Provide(kc, &store{"slow"}); err != nil {
			return err
		}
		appliedDuring = c.applied.Load()
		_, probedDuring = svc.Get(root)
		return nil
	}), nil)
	assert.Zero(t, appliedDuring, "dependent loaded while its provider was still Loading")
	assert.False(t, probedDuring, "Get saw a service whose provider was still Loading (active providers only)")
	kerneltest.RequireActive(t, dep)
	assert.Equal(t, []string{"apply slow"}, c.tr.take())
}

// When a service goes away (docs/kernel.md "Services"): when the provider unloads, each dependent
// unloads (its cleanup runs, with the service still reachable, and its context is cancelled) and
// ends Pending, not Disposed; the provider's own earlier cleanup runs after the dependents'.
func TestDependentUnloadsToPendingWhenProviderGoes(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.goes")
	e := kernel.NewEvent[string]("test/goes")
	var c consumer
	var tr trace
	dep := kerneltest.RequireLoad(t, root, plugin("dependent", func(kc *kernel.Context) error {
		if _, err := e.On(kc, tr.listener("dependent listener")); err != nil {
			return err
		}
		return c.module("dependent", svc).Apply(kc, nil)
	}, svc.Dep()), nil)
	p := kerneltest.RequireLoad(t, root, plugin("provider", func(kc *kernel.Context) error {
		if err := kc.OnDispose(func(context.Context) error { c.tr.add("provider cleanup"); return nil }); err != nil {
			return err
		}
		_, err := svc.Provide(kc, &store{"one"})
		return err
	}), nil)
	kerneltest.RequireActive(t, dep)
	depCtx := c.kc.Load().Context()

	kerneltest.RequireDispose(t, p)
	kerneltest.RequirePending(t, dep)
	assert.Equal(t, []string{"apply one", "cleanup one", "provider cleanup"}, c.tr.take())
	assert.ErrorIs(t, depCtx.Err(), context.Canceled)
	assert.Equal(t, 0, e.Listeners(root))
	require.NoError(t, e.Emit(bg, root, ""))
	assert.Empty(t, tr.take())
	_, ok := svc.Get(root)
	assert.False(t, ok)
}

// When it comes back (Cordis tutorial ch. 3, service replacement): dependents reload from
// scratch when the service is provided again, by the same module or by a different provider.
func TestDependentReloadsWhenServiceReturnsOrProviderChanges(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.returns")
	var c consumer
	dep := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)
	p1 := kerneltest.RequireLoad(t, root, provides("provider-one", svc, &store{"one"}), nil)
	kerneltest.RequireDispose(t, p1)
	kerneltest.RequirePending(t, dep)

	p1 = kerneltest.RequireLoad(t, root, provides("provider-one", svc, &store{"one again"}), nil)
	kerneltest.RequireActive(t, dep)
	kerneltest.RequireDispose(t, p1)
	kerneltest.RequireLoad(t, root, provides("provider-two", svc, &store{"two"}), nil)
	kerneltest.RequireActive(t, dep)

	assert.Equal(t, []string{
		"apply one", "cleanup one",
		"apply one again", "cleanup one again",
		"apply two",
	}, c.tr.take())
	assert.EqualValues(t, 3, c.applied.Load())
}

// A provider that restarts (config update) withdraws and re-provides its service: dependents unload
// and reload against the new value.
func TestDependentRestartsWhenProviderUpdates(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.update")
	var c consumer
	dep := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)
	p := kerneltest.RequireLoad(t, root, kernel.Define("configurable-provider", func(kc *kernel.Context, cfg greeterConfig) error {
		_, err := svc.Provide(kc, &store{cfg.Greeting})
		return err
	}), greeterConfig{Greeting: "v1"})
	require.NoError(t, p.Update(greeterConfig{Greeting: "v2"}))
	kerneltest.RequireActive(t, dep)
	assert.Equal(t, []string{"apply v1", "cleanup v1", "apply v2"}, c.tr.take())
}

// Cordis's `service "x" has been registered at <fiber>`: a second live provider of the same service
// is an error matching kernel.ErrDuplicateService; the first provider keeps serving.
func TestSecondProviderIsAnError(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.duplicate")
	kerneltest.RequireLoad(t, root, provides("first-provider", svc, &store{"first"}), nil)

	var provideErr error
	f, err := root.Load(plugin("second-provider", func(kc *kernel.Context) error {
		_, provideErr = svc.Provide(kc, &store{"second"})
		return provideErr
	}), nil)
	require.Error(t, err)
	assert.ErrorIs(t, provideErr, kernel.ErrDuplicateService)
	assert.ErrorIs(t, err, kernel.ErrDuplicateService)
	assert.ErrorContains(t, provideErr, `service "test.duplicate" has been registered at first-provider`)
	kerneltest.RequireFailed(t, f)

	got, ok := svc.Get(root)
	require.True(t, ok)
	assert.Equal(t, "first", got.name)

	// Keys with the same name address the same service.
	alias := kernel.NewService[*store]("test.duplicate")
	_, err = alias.Provide(root, &store{"alias"})
	assert.ErrorIs(t, err, kernel.ErrDuplicateService)
}

// Cordis's ctx.get: Get is a one-time probe. It reports the service while a provider is active,
// and a plugin that only probes is not restarted when the service comes or goes.
func TestGetProbesWithoutTracking(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.probe")
	_, ok := svc.Get(root)
	assert.False(t, ok)

	var applied atomic.Int32
	var sawAtApply atomic.Bool
	prober := kerneltest.RequireLoad(t, root, plugin("prober", func(kc *kernel.Context) error {
		applied.Add(1)
		_, ok := svc.Get(kc)
		sawAtApply.Store(ok)
		return nil
	}), nil)
	assert.False(t, sawAtApply.Load())

	p := kerneltest.RequireLoad(t, root, provides("provider", svc, &store{"probed"}), nil)
	got, ok := svc.Get(root)
	require.True(t, ok)
	assert.Equal(t, "probed", got.name)

	kerneltest.RequireDispose(t, p)
	_, ok = svc.Get(root)
	assert.False(t, ok)
	kerneltest.RequireActive(t, prober)
	assert.EqualValues(t, 1, applied.Load(), "a probe does not make the plugin reload")
}

// Must: inside the Apply of a module that injects the service it returns it; used for a missing
// service it panics.
func TestMustReturnsInjectedServiceAndPanicsWhenMissing(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.must")
	assert.Panics(t, func() { svc.Must(root) })
	var c consumer
	kerneltest.RequireLoad(t, root, provides("provider", svc, &store{"must"}), nil)
	f := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)
	kerneltest.RequireActive(t, f)
	assert.Equal(t, []string{"apply must"}, c.tr.take())
	assert.Equal(t, "must", svc.Must(root).name)
}

// Cordis service.spec "multiple injects": Foo injects qux, Bar injects foo and qux, Qux injects
// nothing; loaded in the order Foo, Bar, Qux, all three end Active and each applies exactly once.
func TestMultipleInjectsResolveInAnyLoadOrder(t *testing.T) {
	root := kerneltest.NewRoot(t)
	foo := kernel.NewService[string]("test.foo")
	bar := kernel.NewService[string]("test.bar")
	qux := kernel.NewService[string]("test.qux")
	var tr trace
	mod := func(id string, svc *kernel.Service[string], deps ...kernel.Dep) kernel.Module {
		return plugin(id, func(kc *kernel.Context) error {
			tr.add("%s", id)
			_, err := svc.Provide(kc, id)
			return err
		}, deps...)
	}
	fFoo := kerneltest.RequireLoad(t, root, mod("foo", foo, qux.Dep()), nil)
	fBar := kerneltest.RequireLoad(t, root, mod("bar", bar, foo.Dep(), qux.Dep()), nil)
	kerneltest.RequirePending(t, fFoo)
	kerneltest.RequirePending(t, fBar)
	fQux := kerneltest.RequireLoad(t, root, mod("qux", qux), nil)
	for _, f := range []*kernel.Fiber{fFoo, fBar, fQux} {
		kerneltest.RequireActive(t, f)
	}
	assert.Equal(t, []string{"qux", "foo", "bar"}, tr.take())

	// Withdrawing qux cascades: foo and bar both go back to Pending.
	kerneltest.RequireDispose(t, fQux)
	kerneltest.RequirePending(t, fFoo)
	kerneltest.RequirePending(t, fBar)
}

// The Disposer returned by Provide withdraws the service early (root-provided services included);
// dependents go Pending.
func TestProvideDisposerWithdrawsService(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.root-provided")
	withdraw, err := svc.Provide(root, &store{"root"})
	require.NoError(t, err)
	var c consumer
	dep := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)
	kerneltest.RequireActive(t, dep)

	require.NoError(t, withdraw())
	require.NoError(t, withdraw())
	kerneltest.RequirePending(t, dep)
	assert.Equal(t, []string{"apply root", "cleanup root"}, c.tr.take())
	_, ok := svc.Get(root)
	assert.False(t, ok)
}

// A dependent that is disposed while Pending never applies and leaves no trace.
func TestDisposePendingDependent(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[*store]("test.pending-dispose")
	var c consumer
	dep := kerneltest.RequireLoad(t, root, c.module("dependent", svc), nil)
	kerneltest.RequireDispose(t, dep)
	kerneltest.RequireDisposed(t, dep)
	kerneltest.RequireLoad(t, root, provides("provider", svc, &store{"late"}), nil)
	kerneltest.RequireDisposed(t, dep)
	assert.Zero(t, c.applied.Load())
}
