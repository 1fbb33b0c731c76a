package tools_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestPluginDefaults(t *testing.T) {
	e := newEnv(t)
	require.Equal(t, tools.Config{Mode: "native", MaxParallelSubCalls: 10}, e.rt.Config())
	require.Equal(t, "tools", tools.Plugin.ID)
}

func TestPluginConfigValidation(t *testing.T) {
	cases := []struct {
		name string
		cfg  tools.Config
		want string
	}{
		{"unknown mode", tools.Config{Mode: "fancy", MaxParallelSubCalls: 10}, `tools: mode must be one of "native", "code" or "both" (got "fancy")`},
		{"zero sub-calls", tools.Config{Mode: "native", MaxParallelSubCalls: 0}, "maxParallelSubCalls must be a positive integer"},
		{"code mode needs a code runtime", tools.Config{Mode: "code", MaxParallelSubCalls: 10}, `tools: mode "code" requires a code runtime — none is available in this build; set tools mode to "native"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := kerneltest.NewRoot(t)
			f, err := root.Load(tools.Plugin, tc.cfg)
			require.Error(t, err)
			require.ErrorContains(t, err, tc.want)
			if f != nil {
				kerneltest.RequireFailed(t, f)
			}
			_, provided := tools.Service.Get(root)
			require.False(t, provided)
		})
	}
}

func TestRuntimeWithdrawnWhenPluginDisposed(t *testing.T) {
	e := newEnv(t)
	consumerFiber := e.load(t, echo())
	kerneltest.RequireDispose(t, e.f)
	_, provided := tools.Service.Get(e.root)
	require.False(t, provided)
	kerneltest.RequirePending(t, consumerFiber)
}
