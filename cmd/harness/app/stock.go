package app

import (
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// stockModules are the plugins every harness build knows: the only place that names them all.
func stockModules() []kernel.Module {
	return []kernel.Module{
		fslocal.Plugin,
		fspolicy.Plugin,
		tools.Plugin,
		toolfs.Plugin,
	}
}
