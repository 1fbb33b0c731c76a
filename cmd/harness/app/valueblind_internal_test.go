package app

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// TestStockProfilesReadNoValues: every stock listener on the keys that see a result is
// tools.ValueBlind, so over serve a call is built for its content alone (tools.Exec.ContentOnly:
// read builds no list of lines) in each embedded profile.
func TestStockProfilesReadNoValues(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, profile := range []string{"default", "sandboxed", "unconfined"} {
		t.Run(profile, func(t *testing.T) {
			o := defaultOptions()
			h, err := compose(context.Background(), o, &flags{workdir: t.TempDir(), profile: profile}, zaptest.NewLogger(t))
			require.NoError(t, err)
			defer h.close()
			root := h.k.Root()
			require.Positive(t, tools.PostExecute.Listeners(root)+tools.ChangeStep.Listeners(root), "the profile listens to results")
			require.Zero(t, tools.ExecuteStep.ListenersExcept(root, tools.ValueBlind))
			require.Zero(t, tools.ChangeStep.ListenersExcept(root, tools.ValueBlind))
			require.Zero(t, tools.PostExecute.ListenersExcept(root, tools.ValueBlind))
			require.Zero(t, tools.ResultEvent.ListenersExcept(root, tools.ValueBlind))
		})
	}
}
