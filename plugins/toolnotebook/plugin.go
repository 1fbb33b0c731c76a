// Package toolnotebook is the plugin tool-notebook: it registers notebook_edit, which replaces,
// inserts or deletes one cell of a Jupyter notebook and writes the file as nbformat writes it
// (docs/notebooks.md). `read` shows notebooks as cells (tool-fs); both name cells as
// internal/notebook does.
package toolnotebook

import (
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ID is the plugin's catalog name.
const ID = "tool-notebook"

// Config is tool-notebook's configuration: it has none.
type Config struct{}

// Plugin registers notebook_edit while the fs and tools services exist; it reaches files the way
// edit does, through the file-tool kit (plugins/tools/filetool).
var Plugin = kernel.Define[Config](ID, register, fs.Service.Dep(), tools.Service.Dep())

// Module is Plugin for an fx host's kernel catalog.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// suite is a loaded instance: the kit's environment and the budgets of errors (tool-fs's
// defaults, docs/tool-fs.md "The result budget").
type suite struct {
	*filetool.Env
	budget filetool.Budget
}

func register(kc *kernel.Context, _ Config) error {
	env, err := filetool.NewEnv(kc)
	if err == nil {
		table, _ := filetool.NewBudget(ID, filetool.DefaultBudget, filetool.KnownBudgets[int64]()) // valid: no error
		_, err = tools.Service.Must(kc).Register(kc, (&suite{Env: env, budget: table}).notebookEditDefinition())
	}
	return err
}

// withinBasis reports whether a mutation's text is below the provider's diff basis bound, so a
// value may carry it (as edit's does, docs/tool-fs.md "edit").
func (s *suite) withinBasis(text string) bool {
	limit := fs.DefaultDiffBasisMaxBytes
	if b, ok := s.FS.(fs.DiffBasisBounder); ok {
		limit = b.DiffBasisMaxBytes()
	}
	return int64(len(text)) < limit
}
