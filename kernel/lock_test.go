package kernel_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// An Apply restructures inline: it provides and withdraws services, loads, updates and disposes
// children, disposes its own registrations and reads the tree, all inside the one lifecycle change
// that loads it (docs/kernel.md "The lifecycle lock").
func TestApplyLoadsProvidesAndDisposesInline(t *testing.T) {
	k := kerneltest.NewKernel(t)
	kept := kernel.NewService[int]("test.inline-kept")
	dropped := kernel.NewService[int]("test.inline-dropped")
	var tr trace
	var dependent, updated *kernel.Fiber
	var parent *kernel.Fiber
	within(t, 5*time.Second, func() {
		parent = kerneltest.RequireLoad(t, k.Root(), plugin("restructurer", func(kc *kernel.Context) error {
			if _, err := kept.Provide(kc, 1); err != nil {
				return err
			}
			withdraw, err := dropped.Provide(kc, 2)
			if err != nil {
				return err
			}
			if err := withdraw(); err != nil {
				return err
			}
			if _, ok := dropped.Get(kc); ok {
				return errors.New("withdrawn service still visible")
			}
			if dependent, err = kc.Load(plugin("dependent", func(kc *kernel.Context) error {
				tr.add("dependent sees %d", kept.Must(kc))
				return nil
			}, kept.Dep()), nil); err != nil {
				return err
			}
			gone, err := kc.Load(plugin("short-lived", func(kc *kernel.Context) error { return kc.OnDispose(tr.hook("short-lived disposed")) }), nil)
			if err != nil {
				return err
			}
			if err := gone.Dispose(); err != nil {
				return err
			}
			var grandchild *kernel.Fiber
			if _, err := kc.Load(plugin("middle", func(kc *kernel.Context) error {
				grandchild, err = kc.Load(plugin("grandchild", func(kc *kernel.Context) error { return kc.OnDispose(tr.hook("grandchild disposed")) }), nil)
				return err
			}), nil); err != nil {
				return err
			}
			if err := grandchild.Dispose(); err != nil {
				return err
			}
			if updated, err = kc.Load(kernel.Define("updated", func(_ *kernel.Context, cfg greeterConfig) error {
				tr.add("updated with %s", cfg.Greeting)
				return nil
			}), greeterConfig{Greeting: "first"}); err != nil {
				return err
			}
			if err := updated.Update(greeterConfig{Greeting: "second"}); err != nil {
				return err
			}
			undo, err := kc.Effect("scratch", func() (kernel.Disposer, error) {
				return func() error { tr.add("scratch undone"); return nil }, nil
			})
			if err != nil {
				return err
			}
			if err := undo(); err != nil {
				return err
			}
			tr.add("missing %v, %d fibers", dependent.Missing(), len(kc.Kernel().Fibers()))
			return nil
		}), nil)
	})
	assert.Equal(t, []string{
		"short-lived disposed",
		"grandchild disposed",
		"updated with first",
		"updated with second",
		"scratch undone",
		"missing [test.inline-kept], 4 fibers", // the dependent waits for its provider to finish loading
		"dependent sees 1",
	}, tr.take())
	kerneltest.RequireActive(t, dependent)
	kerneltest.RequireActive(t, updated)
	within(t, 5*time.Second, func() { kerneltest.RequireDispose(t, parent) })
	kerneltest.RequireDisposed(t, dependent)
	assert.Zero(t, k.ServiceCount())
}

// Disposers run inside the change that disposes their instance: an OnDispose hook may dispose its
// own instance again, update or dispose a child and read the tree without waiting for itself.
func TestDisposerMayRestructureInline(t *testing.T) {
	k := kerneltest.NewKernel(t)
	var tr trace
	var child *kernel.Fiber
	f := kerneltest.RequireLoad(t, k.Root(), plugin("self-disposer", func(kc *kernel.Context) error {
		self := kc.Fiber()
		if err := kc.OnDispose(func(context.Context) error {
			tr.add("hook sees %d fibers, child %s", len(kc.Kernel().Fibers()), child.State())
			return errors.Join(self.Dispose(), child.Dispose())
		}); err != nil {
			return err
		}
		var err error
		child, err = kc.Load(plugin("child", func(kc *kernel.Context) error { return kc.OnDispose(tr.hook("child disposed")) }), nil)
		if err != nil {
			return err
		}
		// A later hook runs first: it updates the child, which unloads and, its parent going, stays
		// down until the parent's teardown disposes it.
		return kc.OnDispose(func(context.Context) error { return child.Update(nil) })
	}), nil)
	within(t, 5*time.Second, func() { kerneltest.RequireDispose(t, f) })
	assert.Equal(t, []string{"child disposed", "hook sees 1 fibers, child disposed"}, tr.take())
	kerneltest.RequireDisposed(t, child)
	assert.Empty(t, k.Fibers())
}

// A listener that a lifecycle change runs (here: an event emitted from inside Apply) is part of that
// change: through its own context it may emit, register, load and dispose children, provide and
// withdraw a service, and dispose its own registrations, in every dispatch mode.
func TestListenerRunByApplyMayEmitRegisterLoadAndDispose(t *testing.T) {
	k := kerneltest.NewKernel(t)
	emit := kernel.NewEvent[string]("test/under-apply")
	nested := kernel.NewEvent[string]("test/under-apply-nested")
	wf := kernel.NewWaterfall[string, int]("test/under-apply-waterfall")
	bail := kernel.NewBail[string, int]("test/under-apply-bail")
	par := kernel.NewParallel[string]("test/under-apply-parallel")
	svc := kernel.NewService[string]("test.under-apply")
	var tr trace

	restructure := func(kc *kernel.Context, mode string) error {
		if err := nested.Emit(bg, kc, mode); err != nil {
			return err
		}
		d, err := emit.On(kc, func(context.Context, string) error { return nil })
		if err != nil {
			return err
		}
		child, err := kc.Load(noop("listener-child"), nil)
		if err != nil {
			return err
		}
		withdraw, err := svc.Provide(kc, mode)
		if err != nil {
			return err
		}
		tr.add("%s restructured", mode)
		return errors.Join(withdraw(), child.Dispose(), d())
	}
	kerneltest.RequireLoad(t, k.Root(), plugin("listeners", func(kc *kernel.Context) error {
		mustOn(t, nested, kc, func(_ context.Context, mode string) error { tr.add("nested %s", mode); return nil })
		mustOn(t, emit, kc, func(_ context.Context, mode string) error { return restructure(kc, mode) })
		if _, err := wf.On(kc, func(_ context.Context, mode string, next func() (int, error)) (int, error) {
			return 1, restructure(kc, mode)
		}); err != nil {
			return err
		}
		if _, err := bail.On(kc, func(_ context.Context, mode string) (int, bool, error) { return 1, true, restructure(kc, mode) }); err != nil {
			return err
		}
		_, err := par.On(kc, func(_ context.Context, mode string) error { return restructure(kc, mode) })
		return err
	}), nil)

	within(t, 10*time.Second, func() {
		kerneltest.RequireLoad(t, k.Root(), plugin("emitter", func(kc *kernel.Context) error {
			if err := emit.Emit(bg, kc, "emit"); err != nil {
				return err
			}
			if _, err := wf.Run(bg, kc, "waterfall", nil); err != nil {
				return err
			}
			if _, _, err := bail.Run(bg, kc, "bail"); err != nil {
				return err
			}
			return par.Run(bg, kc, "parallel")
		}), nil)
	})
	assert.Equal(t, []string{
		"nested emit", "emit restructured",
		"nested waterfall", "waterfall restructured",
		"nested bail", "bail restructured",
		"nested parallel", "parallel restructured",
	}, tr.take())
	assert.Equal(t, 1, emit.Listeners(k.Root()), "the registrations made by the listeners were disposed")
	assert.Len(t, k.Fibers(), 2)
	assert.Zero(t, k.ServiceCount())
}

// A goroutine that was not handed the applying context does not get the lifecycle lock for free:
// its load, dispose and provide wait until the change in progress (an Apply that blocks) ends.
func TestOtherGoroutineWaitsForTheChangeInProgress(t *testing.T) {
	k := kerneltest.NewKernel(t)
	svc := kernel.NewService[int]("test.waiting")
	var tr trace
	other := kerneltest.RequireLoad(t, k.Root(), plugin("other", func(kc *kernel.Context) error { return kc.OnDispose(tr.hook("other disposed")) }), nil)

	inApply := make(chan struct{})
	release := make(chan struct{})
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		kerneltest.RequireLoad(t, k.Root(), plugin("slow", func(kc *kernel.Context) error {
			close(inApply)
			<-release
			tr.add("slow applied")
			return nil
		}), nil)
	}()
	<-inApply

	started := make(chan struct{}, 3)
	done := make(chan string, 3)
	go func() {
		started <- struct{}{}
		kerneltest.RequireLoad(t, k.Root(), plugin("late", func(*kernel.Context) error { tr.add("late applied"); return nil }), nil)
		done <- "load"
	}()
	go func() {
		started <- struct{}{}
		assert.NoError(t, other.Dispose())
		done <- "dispose"
	}()
	go func() {
		started <- struct{}{}
		_, err := svc.Provide(k.Root(), 1)
		assert.NoError(t, err)
		done <- "provide"
	}()
	for range 3 {
		<-started
	}
	select {
	case op := <-done:
		t.Fatalf("%s finished while another goroutine's Apply held the lifecycle lock", op)
	case <-time.After(200 * time.Millisecond):
	}
	assert.Empty(t, tr.take(), "nothing ran while the Apply held the lock")
	kerneltest.RequireActive(t, other)
	assert.Zero(t, k.ServiceCount())

	close(release)
	<-loaded
	for range 3 {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("a waiting operation did not finish once the Apply returned")
		}
	}
	got := tr.take()
	require.NotEmpty(t, got)
	assert.Equal(t, "slow applied", got[0])
	assert.ElementsMatch(t, []string{"slow applied", "late applied", "other disposed"}, got)
	kerneltest.RequireDisposed(t, other)
	assert.Equal(t, 1, k.ServiceCount())
}

// Reentrancy is carried by the context, not by the goroutine: a goroutine handed the applying
// context joins the change, so an Apply may wait for work it delegated.
func TestGoroutineHandedTheApplyingContextJoinsTheChange(t *testing.T) {
	k := kerneltest.NewKernel(t)
	svc := kernel.NewService[int]("test.delegated")
	var child *kernel.Fiber
	within(t, 5*time.Second, func() {
		kerneltest.RequireLoad(t, k.Root(), plugin("delegator", func(kc *kernel.Context) error {
			errc := make(chan error, 1)
			go func() {
				var err error
				if child, err = kc.Load(noop("delegated-child"), nil); err != nil {
					errc <- err
					return
				}
				_, err = svc.Provide(kc, 7)
				errc <- err
			}()
			select {
			case err := <-errc:
				return err
			case <-time.After(2 * time.Second):
				return errors.New("the delegated load waited for the Apply that delegated it")
			}
		}), nil)
	})
	kerneltest.RequireActive(t, child)
	assert.Equal(t, 1, k.ServiceCount())
}
