package modelcatalog_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestPluginProvidesModels(t *testing.T) {
	root := kerneltest.NewRoot(t)
	f := kerneltest.RequireLoad(t, root, modelcatalog.Plugin, nil)
	kerneltest.RequireActive(t, f)

	cat, ok := tools.Models.Get(root)
	require.True(t, ok)
	assert.Equal(t, "default", cat.DefaultModel())
	info, err := cat.ResolveModel(context.Background(), cat.DefaultModel())
	require.NoError(t, err)
	assert.True(t, info.AcceptsImages())

	s := tools.NewSession("s")
	assert.Equal(t, "default", tools.ModelFor(&tools.Exec{Session: s}, cat), "a session naming no model uses the default")

	second, err := root.Load(modelcatalog.Plugin, nil)
	if err == nil {
		assert.NotEqual(t, kernel.Active, second.State(), "a second catalog must not become active")
		err = second.Err()
	}
	assert.ErrorIs(t, err, kernel.ErrDuplicateService)

	kerneltest.RequireDispose(t, f)
	_, ok = tools.Models.Get(root)
	assert.False(t, ok, "disposing the plugin withdraws the service")
}

func TestPluginConfig(t *testing.T) {
	root := kerneltest.NewRoot(t)
	f := kerneltest.RequireLoad(t, root, modelcatalog.Plugin, modelcatalog.Config{DefaultModel: "t",
		Models: []modelcatalog.Model{{ID: "t", Input: []string{"text"}}}})
	kerneltest.RequireActive(t, f)
	cat := tools.Models.Must(root)
	info, err := cat.ResolveModel(context.Background(), "t")
	require.NoError(t, err)
	assert.False(t, info.AcceptsImages())

	bad, err := root.Load(modelcatalog.Plugin, modelcatalog.Config{DefaultModel: "x"})
	if err == nil {
		kerneltest.RequireFailed(t, bad)
		err = bad.Err()
	}
	require.ErrorContains(t, err, `model-catalog: defaultModel "x" is not one of models`)
}

func TestRegisteredInCatalogs(t *testing.T) {
	cat, err := kernelfx.Catalog(modelcatalog.Module)
	require.NoError(t, err)
	mods := cat.Modules()
	require.Len(t, mods, 1)
	assert.Equal(t, modelcatalog.ID, mods[0].ID)
}
