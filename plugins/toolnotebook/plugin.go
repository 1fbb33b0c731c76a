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
	"github.com/cordon-dev/cordon/plugins/tools/budget"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ID is the catalog name of the plugin that registers notebook_edit (docs/notebooks.md).
const ID = "tool-notebook"

// Config is the (empty) configuration of tool-notebook.
type Config struct{}

// Plugin registers notebook_edit once the fs and tools services exist. It shares tool-fs's
// guards, sandbox escalation and error rendering through plugins/tools/filetool, and is a plugin of
// its own so that a composition offers it or not.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// suite is one loaded instance: what the file tools share, and the result budgets.
type suite struct {
	*filetool.Env
	budget budget.Table
}

func apply(kc *kernel.Context, _ Config) error {
	env, err := filetool.NewEnv(kc)
	if err != nil {
		return err
	}
	// The budgets of tool-fs's defaults (docs/tool-fs.md "The result budget"): valid, so no error.
	table, _ := budget.NewTable(ID, budget.Default, budget.Known())
	s := &suite{Env: env, budget: table}
	_, err = tools.Service.Must(kc).Register(kc, s.notebookEditDefinition())
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
