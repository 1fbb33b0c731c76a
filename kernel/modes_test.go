package kernel_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

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

// Cordis events.spec "ctx.bail()" (throwing listener): the first error stops the chain and
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
// failures are returned, joined. A panic is one of the joined errors.
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

// Once applies to every mode, as in Cordis: a Once listener on a waterfall or a bail runs a single
// time.
func TestOnceAppliesToWaterfallAndBail(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[int, int]("test/once-waterfall")
	b := kernel.NewBail[int, int]("test/once-bail")
	_, err := w.Decide(root, func(context.Context, int) (int, error) { return 1, nil }, kernel.Once())
	require.NoError(t, err)
	_, err = b.On(root, func(context.Context, int) (int, bool, error) { return 1, true, nil }, kernel.Once())
	require.NoError(t, err)
	inner := func() (int, error) { return 0, nil }

	for i, want := range []int{1, 0, 0} {
		got, err := w.Run(bg, root, 0, inner)
		require.NoError(t, err)
		assert.Equal(t, want, got, "waterfall run %d", i)
		r, ok, err := b.Run(bg, root, 0)
		require.NoError(t, err)
		assert.Equal(t, want, r, "bail run %d", i)
		assert.Equal(t, want == 1, ok, "bail run %d", i)
	}
	assert.Equal(t, 0, w.Listeners(root))
}
