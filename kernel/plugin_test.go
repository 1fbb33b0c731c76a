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

type greeterConfig struct {
	Greeting string
	Limit    int
}

func (c *greeterConfig) Defaults() { c.Greeting = "hello"; c.Limit = 10 }

func (c greeterConfig) Validate() error {
	if c.Limit < 0 {
		return errors.New("limit must not be negative")
	}
	return nil
}

// Cordis plugin.spec "apply functional plugin" / "apply object plugin": Apply receives the config it
// was loaded with. With Define[C], Load accepts nil (the defaults), C or *C, and the fiber reports
// the config it holds.
func TestApplyReceivesConfig(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var got []greeterConfig
	mod := kernel.Define("greeter", func(_ *kernel.Context, cfg greeterConfig) error {
		got = append(got, cfg)
		return nil
	})
	require.NotNil(t, mod.NewConfig)
	assert.Equal(t, &greeterConfig{Greeting: "hello", Limit: 10}, mod.NewConfig(), "NewConfig applies Defaults")

	for _, tc := range []struct {
		name string
		cfg  any
		want greeterConfig
	}{
		{"nil means defaults", nil, greeterConfig{Greeting: "hello", Limit: 10}},
		{"value", greeterConfig{Greeting: "hi", Limit: 1}, greeterConfig{Greeting: "hi", Limit: 1}},
		{"pointer", &greeterConfig{Greeting: "hey", Limit: 2}, greeterConfig{Greeting: "hey", Limit: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			f := kerneltest.RequireLoad(t, root, mod, tc.cfg)
			kerneltest.RequireActive(t, f)
			assert.Equal(t, []greeterConfig{tc.want}, got)
			assert.NotNil(t, f.Config())
			kerneltest.RequireDispose(t, f)
		})
	}

	_, err := root.Load(mod, 42)
	assert.Error(t, err, "a config of the wrong type is refused")
}

// Cordis fiber.spec "fail on first load": a config that fails Validate fails the load before
// Apply runs; the instance is Failed.
func TestDefineValidatesConfigBeforeApply(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var applied atomic.Int32
	mod := kernel.Define("validated", func(*kernel.Context, greeterConfig) error { applied.Add(1); return nil })
	f, err := root.Load(mod, greeterConfig{Limit: -1})
	require.ErrorContains(t, err, "limit must not be negative")
	kerneltest.RequireFailed(t, f)
	assert.Zero(t, applied.Load())
}

// Cordis plugin.spec "apply invalid plugin": a module without Apply, or with a malformed id, is
// refused by Load and by the catalog.
func TestInvalidModuleIsRefused(t *testing.T) {
	root := kerneltest.NewRoot(t)
	cat := kernel.NewCatalog()
	for _, tc := range []struct {
		name string
		mod  kernel.Module
	}{
		{"no apply", kernel.Module{ID: "no-apply"}},
		{"empty id", noop("")},
		{"malformed id", noop("Bad Id!")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := root.Load(tc.mod, nil)
			assert.Error(t, err)
			assert.Error(t, cat.Register(tc.mod))
		})
	}
	assert.Empty(t, root.Kernel().Fibers())
}

// Caddy-style catalog: Register refuses duplicates, Lookup finds by id, Modules is sorted.
func TestCatalogRegisterLookupModules(t *testing.T) {
	cat := kernel.NewCatalog()
	require.NoError(t, cat.Register(noop("zeta")))
	require.NoError(t, cat.Register(noop("alpha.beta")))
	assert.Error(t, cat.Register(noop("zeta")), "duplicate id")

	m, ok := cat.Lookup("alpha.beta")
	assert.True(t, ok)
	assert.Equal(t, "alpha.beta", m.ID)
	_, ok = cat.Lookup("missing")
	assert.False(t, ok)

	var ids []string
	for _, m := range cat.Modules() {
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []string{"alpha.beta", "zeta"}, ids)

	k := kerneltest.NewKernel(t, kernel.WithCatalog(cat))
	assert.Same(t, cat, k.Catalog())
}

// Cordis plugin.spec "inactive context": once its load ends, a context refuses new effects with
// ErrInactive, already inside its own disposers and after Dispose returned.
func TestInactiveContextRefusesRegistrations(t *testing.T) {
	root := kerneltest.NewRoot(t)
	e := kernel.NewEvent[string]("test/inactive")
	svc := kernel.NewService[int]("test.inactive")
	var childApplied atomic.Int32
	child := plugin("late-child", func(*kernel.Context) error { childApplied.Add(1); return nil })
	attempt := func(kc *kernel.Context) []error {
		_, errLoad := kc.Load(child, nil)
		_, errOn := e.On(kc, func(context.Context, string) error { return nil })
		_, errProvide := svc.Provide(kc, 1)
		return []error{errLoad, errOn, kc.OnDispose(func(context.Context) error { return nil }), errProvide}
	}
	var during []error
	var saved *kernel.Context
	f := kerneltest.RequireLoad(t, root, plugin("inactive", func(kc *kernel.Context) error {
		saved = kc
		return kc.OnDispose(func(context.Context) error { during = attempt(kc); return nil })
	}), nil)
	kerneltest.RequireDispose(t, f)

	require.Len(t, during, 4)
	for i, err := range during {
		assert.ErrorIs(t, err, kernel.ErrInactive, "inside a disposer, attempt %d", i)
	}
	for i, err := range attempt(saved) {
		assert.ErrorIs(t, err, kernel.ErrInactive, "after dispose, attempt %d", i)
	}
	assert.Zero(t, childApplied.Load())
	assert.Equal(t, 0, e.Listeners(root))
	_, ok := svc.Get(root)
	assert.False(t, ok)
}

// Cordis plugin.spec "nested plugins" / dispose.spec "fork.dispose": a plugin, its child and its
// grandchild each listen; disposing the top plugin removes all three listeners and disposes the
// children, and a second dispose changes nothing.
func TestNestedPluginsDisposedWithParent(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	e := kernel.NewEvent[string]("test/nested")
	var calls atomic.Int32
	cb := func(context.Context, string) error { calls.Add(1); return nil }
	var child, grandchild *kernel.Fiber
	mustOn(t, e, root, cb)
	f := kerneltest.RequireLoad(t, root, plugin("outer", func(kc *kernel.Context) error {
		if _, err := e.On(kc, cb); err != nil {
			return err
		}
		var err error
		child, err = kc.Load(plugin("middle", func(kc *kernel.Context) error {
			if _, err := e.On(kc, cb); err != nil {
				return err
			}
			var err error
			grandchild, err = kc.Load(plugin("inner", func(kc *kernel.Context) error {
				_, err := e.On(kc, cb)
				return err
			}), nil)
			return err
		}), nil)
		return err
	}), nil)
	kerneltest.RequireActive(t, child)
	kerneltest.RequireActive(t, grandchild)
	assert.Len(t, k.Fibers(), 3)

	require.NoError(t, e.Emit(bg, root, ""))
	assert.EqualValues(t, 4, calls.Load())

	calls.Store(0)
	kerneltest.RequireDispose(t, f)
	kerneltest.RequireDisposed(t, child)
	kerneltest.RequireDisposed(t, grandchild)
	assert.Empty(t, k.Fibers())
	require.NoError(t, e.Emit(bg, root, ""))
	assert.EqualValues(t, 1, calls.Load())

	calls.Store(0)
	kerneltest.RequireDispose(t, f)
	require.NoError(t, e.Emit(bg, root, ""))
	assert.EqualValues(t, 1, calls.Load())
}

// A child disposed on its own leaves its parent active; disposing the parent later does not
// dispose the child twice.
func TestChildDisposedAloneLeavesParent(t *testing.T) {
	root := kerneltest.NewRoot(t)
	var tr trace
	var child *kernel.Fiber
	parent := kerneltest.RequireLoad(t, root, plugin("parent", func(kc *kernel.Context) error {
		var err error
		child, err = kc.Load(plugin("child", func(kc *kernel.Context) error { return kc.OnDispose(tr.hook("child")) }), nil)
		if err != nil {
			return err
		}
		return kc.OnDispose(tr.hook("parent"))
	}), nil)
	kerneltest.RequireDispose(t, child)
	kerneltest.RequireActive(t, parent)
	assert.Equal(t, []string{"child"}, tr.take())
	kerneltest.RequireDispose(t, parent)
	assert.Equal(t, []string{"parent"}, tr.take())
}

// As Cordis's ctx.fiber, the context identifies its owner: the context handed to Apply belongs to
// the returned fiber and kernel, carries a logger, and reports the module.
func TestContextIdentifiesItsPlugin(t *testing.T) {
	k := kerneltest.NewKernel(t)
	var seen *kernel.Context
	f := kerneltest.RequireLoad(t, k.Root(), plugin("ident", func(kc *kernel.Context) error { seen = kc; return nil }), nil)
	require.NotNil(t, seen)
	assert.Same(t, f, seen.Fiber())
	assert.Same(t, k, seen.Kernel())
	assert.NotNil(t, seen.Logger())
	assert.Equal(t, "ident", f.Module().ID)
	assert.NotNil(t, k.Logger())
	assert.Same(t, k, k.Root().Kernel())
}

// A child that is still Pending (its service is missing) is disposed with its parent and never
// applies afterwards.
func TestPendingChildDisposedWithParent(t *testing.T) {
	k := kerneltest.NewKernel(t)
	svc := kernel.NewService[int]("test.pending-child")
	var applied atomic.Int32
	var child *kernel.Fiber
	parent := kerneltest.RequireLoad(t, k.Root(), plugin("parent", func(kc *kernel.Context) error {
		var err error
		child, err = kc.Load(plugin("waiting-child", func(*kernel.Context) error { applied.Add(1); return nil }, svc.Dep()), nil)
		return err
	}), nil)
	kerneltest.RequirePending(t, child)
	kerneltest.RequireDispose(t, parent)
	kerneltest.RequireDisposed(t, child)
	assert.Empty(t, k.Fibers())
	_, err := svc.Provide(k.Root(), 1)
	require.NoError(t, err)
	kerneltest.RequireDisposed(t, child)
	assert.Zero(t, applied.Load())
}
