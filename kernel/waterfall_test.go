package kernel_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

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

// With zero listeners the inner default runs: how removing a policy degrades a tool.
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

// Decide: a decider never calls next, so neither later listeners nor the inner default run.
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

// Waterfall errors travel up through next, no later listener runs after an error, and an outer
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

// A waterfall listener panic becomes a *kernel.PanicError travelling up like an error.
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

// Single slot: with two live deciders on a SingleSlot waterfall, the first in the composition
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
