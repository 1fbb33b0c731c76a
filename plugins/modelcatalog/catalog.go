package modelcatalog

import (
	"context"
	"slices"
	"strings"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Catalog is the static model catalog. It implements tools.ModelCatalog and is immutable.
type Catalog struct {
	def    string
	byID   map[string]Model // lower-cased id -> entry (Input cloned)
	models []Model
}

var _ tools.ModelCatalog = (*Catalog)(nil)

// New validates cfg and returns its catalog. The catalog keeps its own copy of the models.
func New(cfg Config) (*Catalog, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Catalog{byID: make(map[string]Model, len(cfg.Models)), models: make([]Model, len(cfg.Models))}
	for i, m := range cfg.Models {
		m.Input = slices.Clone(m.Input)
		c.models[i] = m
		c.byID[strings.ToLower(m.ID)] = m
	}
	c.def = c.byID[strings.ToLower(cfg.DefaultModel)].ID
	return c, nil
}

// DefaultModel returns the catalog's spelling of the configured default model.
func (c *Catalog) DefaultModel() string { return c.def }

// Models returns a copy of the catalog entries in configuration order.
func (c *Catalog) Models() []Model {
	out := make([]Model, len(c.models))
	for i, m := range c.models {
		m.Input = slices.Clone(m.Input)
		out[i] = m
	}
	return out
}

// ResolveModel returns what the catalog knows about id: the entry whose id equals id, else (for
// an id with a '/') the entry named by its last segment, both case-insensitively. An unknown id
// yields ModelInfo{ID: id} with nil InputModalities and no error. A cancelled ctx fails with its
// cause.
func (c *Catalog) ResolveModel(ctx context.Context, id string) (tools.ModelInfo, error) {
	if ctx.Err() != nil {
		return tools.ModelInfo{}, context.Cause(ctx)
	}
	m, ok := c.lookup(id)
	if !ok {
		return tools.ModelInfo{ID: id}, nil
	}
	return tools.ModelInfo{ID: m.ID, InputModalities: slices.Clone(m.Input)}, nil
}

// lookup finds the entry of id, then of its last '/' segment.
func (c *Catalog) lookup(id string) (Model, bool) {
	key := strings.ToLower(id)
	if m, ok := c.byID[key]; ok {
		return m, true
	}
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		m, ok := c.byID[key[i+1:]]
		return m, ok
	}
	return Model{}, false
}
