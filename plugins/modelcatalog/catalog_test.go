package modelcatalog_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/modelcatalog"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func sample(t *testing.T) *modelcatalog.Catalog {
	t.Helper()
	c, err := modelcatalog.New(modelcatalog.Config{DefaultModel: "VISION-model", Models: []modelcatalog.Model{
		{ID: "vision-model", Input: []string{"text", "image"}},
		{ID: "text-model", Input: []string{"text"}},
		{ID: "legacy-model"},
		{ID: "vendor/qualified", Input: []string{"image"}},
	}})
	require.NoError(t, err)
	return c
}

func TestResolveModel(t *testing.T) {
	c := sample(t)
	cases := []struct {
		id     string
		want   tools.ModelInfo
		images bool
	}{
		{"vision-model", tools.ModelInfo{ID: "vision-model", InputModalities: []string{"text", "image"}}, true},
		{"Vision-Model", tools.ModelInfo{ID: "vision-model", InputModalities: []string{"text", "image"}}, true},
		{"text-model", tools.ModelInfo{ID: "text-model", InputModalities: []string{"text"}}, false},
		{"legacy-model", tools.ModelInfo{ID: "legacy-model"}, false},
		{"unknown-model", tools.ModelInfo{ID: "unknown-model"}, false},
		{"", tools.ModelInfo{ID: ""}, false},
		// An id with a vendor prefix finds the entry of its last segment.
		{"openai/vision-model", tools.ModelInfo{ID: "vision-model", InputModalities: []string{"text", "image"}}, true},
		{"a/b/TEXT-model", tools.ModelInfo{ID: "text-model", InputModalities: []string{"text"}}, false},
		// A qualified catalog id matches as a whole, not by its segment.
		{"vendor/qualified", tools.ModelInfo{ID: "vendor/qualified", InputModalities: []string{"image"}}, true},
		{"qualified", tools.ModelInfo{ID: "qualified"}, false},
		{"vision-model/", tools.ModelInfo{ID: "vision-model/"}, false},
	}
	for _, tc := range cases {
		got, err := c.ResolveModel(context.Background(), tc.id)
		require.NoError(t, err, tc.id)
		assert.Equal(t, tc.want, got, tc.id)
		assert.Equal(t, tc.images, got.AcceptsImages(), tc.id)
	}
}

func TestDefaultModelSpelling(t *testing.T) {
	assert.Equal(t, "vision-model", sample(t).DefaultModel(), "the catalog's spelling of the default")
	def, err := modelcatalog.New(modelcatalog.DefaultConfig())
	require.NoError(t, err)
	info, err := def.ResolveModel(context.Background(), def.DefaultModel())
	require.NoError(t, err)
	assert.True(t, info.AcceptsImages(), "the default model takes image input (docs/host.md)")
}

func TestResolveModelCancelled(t *testing.T) {
	c := sample(t)
	cause := errors.New("caller gave up")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	_, err := c.ResolveModel(ctx, "vision-model")
	require.ErrorIs(t, err, cause)
}

func TestCatalogIsImmutable(t *testing.T) {
	cfg := modelcatalog.Config{DefaultModel: "a", Models: []modelcatalog.Model{{ID: "a", Input: []string{"image"}}}}
	c, err := modelcatalog.New(cfg)
	require.NoError(t, err)
	cfg.Models[0].Input[0] = "text"
	cfg.Models[0].ID = "b"

	info, err := c.ResolveModel(context.Background(), "a")
	require.NoError(t, err)
	require.True(t, info.AcceptsImages(), "New copies the configuration")
	info.InputModalities[0] = "text"

	again, err := c.ResolveModel(context.Background(), "a")
	require.NoError(t, err)
	assert.True(t, again.AcceptsImages(), "a result is a copy")

	ms := c.Models()
	ms[0].Input[0] = "text"
	assert.Equal(t, []modelcatalog.Model{{ID: "a", Input: []string{"image"}}}, c.Models())
}

func TestConcurrentResolve(t *testing.T) {
	c := sample(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				info, err := c.ResolveModel(context.Background(), "openai/vision-model")
				if err != nil || !info.AcceptsImages() {
					t.Errorf("resolve: %v %v", info, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
