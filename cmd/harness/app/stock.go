package app

import (
	"github.com/cordon-dev/cordon/kernel"
	attachmentlocal "github.com/cordon-dev/cordon/plugins/attachments/local"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// stockModules are the plugins every harness build knows: the only place that names them all.
func stockModules() []kernel.Module {
	return []kernel.Module{
		fslocal.Plugin,
		fspolicy.Plugin,
		tools.Plugin,
		toolfs.Plugin,
		toolfssearch.Plugin,
		attachmentlocal.Plugin,
		modelcatalog.Plugin,
		sandboxpolicy.Plugin,
		fssandbox.Plugin,
		userapproval.Plugin,
	}
}
