package kernel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// A tagged listener runs as any other and is left out of ListenersExcept for its tag only, for a
// waterfall and for an event (synchronous and Async); a disposed or unloaded listener is counted by
// neither.
func TestListenersExceptLeavesTaggedListenersOut(t *testing.T) {
	root := kerneltest.NewRoot(t)
	w := kernel.NewWaterfall[int, int]("test/tag-waterfall")
	pass := func(_ context.Context, _ int, next func() (int, error)) (int, error) {
		r, err := next()
		return r + 1, err
	}
	plain, err := w.On(root, pass)
	require.NoError(t, err)
	_, err = w.On(root, pass, kernel.Tag("blind"))
	require.NoError(t, err)
	r, err := w.Run(context.Background(), root, 0, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, r, "the tagged listener runs")
	assert.Equal(t, 2, w.Listeners(root))
	assert.Equal(t, 1, w.ListenersExcept(root, "blind"))
	assert.Equal(t, 2, w.ListenersExcept(root, "other"))
	require.NoError(t, plain())
	assert.Equal(t, 0, w.ListenersExcept(root, "blind"))

	e := kernel.NewEvent[int]("test/tag-event")
	f := kerneltest.RequireLoad(t, root, kernel.Module{ID: "tagger", Apply: func(kc *kernel.Context, _ any) error {
		if _, err := e.On(kc, func(context.Context, int) error { return nil }, kernel.Tag("blind")); err != nil {
			return err
		}
		_, err := e.On(kc, func(context.Context, int) error { return nil }, kernel.Async(), kernel.Tag("blind"))
		return err
	}}, nil)
	kerneltest.RequireActive(t, f)
	_, err = e.On(root, func(context.Context, int) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, 3, e.Listeners(root))
	assert.Equal(t, 1, e.ListenersExcept(root, "blind"))
	require.NoError(t, f.Dispose())
	assert.Equal(t, 1, e.Listeners(root))
	assert.Equal(t, 1, e.ListenersExcept(root, "blind"))
}
