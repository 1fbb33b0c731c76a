package tools_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestPluginDefaults(t *testing.T) {
	e := newEnv(t)
	require.NotNil(t, e.rt)
	require.Equal(t, "tools", tools.Plugin.ID)
}

func TestRuntimeWithdrawnWhenPluginDisposed(t *testing.T) {
	e := newEnv(t)
	consumerFiber := e.load(t, echo())
	kerneltest.RequireDispose(t, e.f)
	_, provided := tools.Service.Get(e.root)
	require.False(t, provided)
	kerneltest.RequirePending(t, consumerFiber)
}
