package app

import (
	"go.uber.org/fx"

	attachmentlocal "github.com/cordon-dev/cordon/plugins/attachments/local"
	"github.com/cordon-dev/cordon/plugins/diagnostics"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/toolnotebook"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// stockModules are the fx modules of the plugins every harness build knows: the only place that
// names them all.
func stockModules() []fx.Option {
	return []fx.Option{
		fslocal.Module,
		fspolicy.Module,
		tools.Module,
		toolfs.Module,
		toolapplypatch.Module,
		toolnotebook.Module,
		toolfssearch.Module,
		attachmentlocal.Module,
		modelcatalog.Module,
		sandboxpolicy.Module,
		fssandbox.Module,
		userapproval.Module,
		fshistory.Module,
		diagnostics.Module,
	}
}
