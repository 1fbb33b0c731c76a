package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestSessionOverrides(t *testing.T) {
	var o tools.SessionOverrides[string]
	a, b := tools.NewSession("a"), tools.NewSession("b")
	_, ok := o.Get(a)
	assert.False(t, ok, "the zero value holds nothing")
	o.Set(a, "x")
	o.Set(a, "y")
	v, ok := o.Get(a)
	assert.True(t, ok)
	assert.Equal(t, "y", v, "the last Set wins")
	_, ok = o.Get(b)
	assert.False(t, ok, "sessions do not share values")

	o.Update(b, func(cur string, ok bool) (string, bool) {
		assert.False(t, ok)
		return "kept?", false
	})
	_, ok = o.Get(b)
	assert.False(t, ok, "Update stores nothing when fn declines")
	o.Update(a, func(cur string, ok bool) (string, bool) { return cur + "z", ok })
	v, _ = o.Get(a)
	assert.Equal(t, "yz", v)

	o.End(a)
	_, ok = o.Get(a)
	assert.False(t, ok)
	o.Set(a, "x")
	o.Set(b, "x")
	o.Clear()
	_, okA := o.Get(a)
	_, okB := o.Get(b)
	assert.False(t, okA || okB)
}

// Bind drops a session's value when the runtime ends the session, and every value on dispose.
func TestSessionOverridesBind(t *testing.T) {
	e := newEnv(t)
	var o tools.SessionOverrides[int]
	a, b := tools.NewSession("a"), tools.NewSession("b")
	f := kerneltest.RequireLoad(t, e.root, kernel.Module{ID: "overrides", Apply: func(kc *kernel.Context, _ any) error {
		return o.Bind(kc)
	}}, nil)
	kerneltest.RequireActive(t, f)
	o.Set(a, 1)
	o.Set(b, 2)
	e.rt.EndSession(context.Background(), a)
	_, ok := o.Get(a)
	assert.False(t, ok, "the ended session's value is gone")
	v, ok := o.Get(b)
	require.True(t, ok)
	assert.Equal(t, 2, v)
	require.NoError(t, f.Dispose())
	_, ok = o.Get(b)
	assert.False(t, ok, "disposing the plugin drops every value")
}
