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
	cat, err := kernelfx.Catalog(tools.Module)
	require.NoError(t, err)
	_, found := cat.Lookup("tools")
	require.True(t, found)

	cases := []struct {
		name    string
		yaml    string
		wantErr string
	}{
		{"defaults", "plugins:\n  - name: tools\n", ""},
		{"empty config", "plugins:\n  - name: tools\n    config: {}\n", ""},
		{"unknown key", "plugins:\n  - name: tools\n    config: { bogus: 1 }\n", `unknown key "bogus"`},
		// The code-runtime keys are gone: strict decoding names them.
		{"removed mode", "plugins:\n  - name: tools\n    config: { mode: native }\n", `unknown key "mode"`},
		{"removed sub-calls", "plugins:\n  - name: tools\n    config: { maxParallelSubCalls: 3 }\n", `unknown key "maxParallelSubCalls"`},
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
			_, ok := tools.Service.Get(k.Root())
			require.True(t, ok)
		})
	}
}
