package toolstest

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Catalog is a fake model-information seam (tools.ModelCatalog): DefaultModel is Default;
// ResolveModel fails with Err when it is set, else returns Models[id], or ModelInfo{ID: id} (the
// capability unknown) for an id it does not list.
type Catalog struct {
	Default string
	Models  map[string]tools.ModelInfo
	Err     error
}

var _ tools.ModelCatalog = Catalog{}

// DefaultModel returns c.Default.
func (c Catalog) DefaultModel() string { return c.Default }

// ResolveModel returns what c knows about id.
func (c Catalog) ResolveModel(_ context.Context, id string) (tools.ModelInfo, error) {
	if c.Err != nil {
		return tools.ModelInfo{}, c.Err
	}
	if m, ok := c.Models[id]; ok {
		return m, nil
	}
	return tools.ModelInfo{ID: id}, nil
}
