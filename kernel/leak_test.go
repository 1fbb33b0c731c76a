package kernel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// Cordis dispose.spec "memory leak test", plugin.spec "memory leak test" and service.spec "compare
// snapshot" (getHookSnapshot): after a plugin tree that registers every kind of effect is disposed,
// listener, service and instance counts are back to their baseline; loading it again reaches the
// same counts as the first load; and once the kernel is closed goleak finds no goroutine left.
func TestLeakCountsReturnToBaselineAndNoGoroutineLeft(t *testing.T) {
	k := kerneltest.NewKernel(t)
	root := k.Root()
	emit := kernel.NewEvent[int]("test/leak-emit")
	async := kernel.NewEvent[int]("test/leak-async")
	wf := kernel.NewWaterfall[int, int]("test/leak-waterfall", kernel.SingleSlot())
	bail := kernel.NewBail[int, int]("test/leak-bail")
	par := kernel.NewParallel[int]("test/leak-parallel")
	svc := kernel.NewService[string]("test.leak")
	sub := kernel.NewService[string]("test.leak-sub")

	dependent := plugin("leak-dependent", func(kc *kernel.Context) error {
		if _, err := emit.On(kc, func(context.Context, int) error { return nil }); err != nil {
			return err
		}
		_, err := sub.Provide(kc, svc.Must(kc)+"/sub")
		return err
	}, svc.Dep())
	tree := plugin("leak-root", func(kc *kernel.Context) error {
		steps := []func() error{
			func() error { _, err := emit.On(kc, func(context.Context, int) error { return nil }); return err },
			func() error {
				_, err := emit.On(kc, func(context.Context, int) error { return nil }, kernel.Prepend())
				return err
			},
			func() error {
				_, err := emit.On(kc, func(context.Context, int) error { return nil }, kernel.Once())
				return err
			},
			func() error {
				_, err := async.On(kc, func(context.Context, int) error { return nil }, kernel.Async())
				return err
			},
			func() error {
				_, err := wf.Decide(kc, func(context.Context, int) (int, error) { return 1, nil })
				return err
			},
			func() error {
				_, err := bail.On(kc, func(context.Context, int) (int, bool, error) { return 0, false, nil })
				return err
			},
			func() error { _, err := par.On(kc, func(context.Context, int) error { return nil }); return err },
			func() error { return kc.OnDispose(func(context.Context) error { return nil }) },
			func() error { _, err := kc.Load(dependent, nil); return err },
			func() error { _, err := svc.Provide(kc, "leak"); return err },
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})

	probes := append(kerneltest.KernelCounts(k),
		kerneltest.Listeners("emit", emit, root),
		kerneltest.Listeners("async", async, root),
		kerneltest.Listeners("waterfall", wf, root),
		kerneltest.Service(svc, root),
		kerneltest.Service(sub, root),
	)
	requireBaseline := kerneltest.Baseline(t, probes...)

	f := kerneltest.RequireLoad(t, root, tree, nil)
	kerneltest.RequireActive(t, f)
	// Exercise every mode once so lazily created state (tables, bus topics) exists.
	require.NoError(t, emit.Emit(bg, root, 1))
	require.NoError(t, async.Emit(bg, root, 1))
	_, err := wf.Run(bg, root, 1, nil)
	require.NoError(t, err)
	_, _, err = bail.Run(bg, root, 1)
	require.NoError(t, err)
	require.NoError(t, par.Run(bg, root, 1))
	after := kerneltest.Take(probes...)
	require.Equal(t, 1, after["service test.leak-sub"], "dependent active: %s", after)

	kerneltest.RequireDispose(t, f)
	requireBaseline()

	f = kerneltest.RequireLoad(t, root, tree, nil)
	require.NoError(t, emit.Emit(bg, root, 1))
	again := kerneltest.Take(probes...)
	require.Empty(t, after.Diff(again), "second load differs from the first")
	kerneltest.RequireDispose(t, f)
	requireBaseline()

	require.NoError(t, k.Close(bg))
	kerneltest.VerifyNone(t)
}
