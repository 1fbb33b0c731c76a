package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestModuleComposesFromYAML(t *testing.T) {
	m, found := kernel.DefaultCatalog().Lookup("tools")
	require.True(t, found, "the package registers Plugin for blank-import hosts")
	require.Equal(t, "tools", m.ID)

	cases := []struct {
		name    string
		yaml    string
		wantErr string
		want    tools.Config
	}{
		{"defaults", "plugins:\n  - name: tools\n", "", tools.Config{Mode: "native", MaxParallelSubCalls: 10}},
		{"explicit", "plugins:\n  - name: tools\n    config: { mode: native, maxParallelSubCalls: 3 }\n", "", tools.Config{Mode: "native", MaxParallelSubCalls: 3}},
		{"unknown key", "plugins:\n  - name: tools\n    config: { bogus: 1 }\n", "bogus", tools.Config{}},
		{"bad value", "plugins:\n  - name: tools\n    config: { maxParallelSubCalls: 0 }\n", "maxParallelSubCalls must be a positive integer", tools.Config{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var k *kernel.Kernel
			app := fx.New(
				kernelfx.Module,
				tools.Module,
				kernelfx.YAML([]byte(tc.yaml)),
				fx.Supply(zaptest.NewLogger(t)),
				fx.Populate(&k),
				fx.NopLogger,
			)
			require.NoError(t, app.Err())
			err := app.Start(context.Background())
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			defer func() { require.NoError(t, app.Stop(context.Background())) }()
			rt, ok := tools.Service.Get(k.Root())
			require.True(t, ok)
			require.Equal(t, tc.want, rt.Config())
		})
	}
}
