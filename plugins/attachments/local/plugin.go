package local

import (
	"fmt"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/attachments"
)

// ID is the catalog name of the plugin.
const ID = "attachment-local"

// Plugin is the attachment-local module: it runs the startup sweep of crash
// residue (best effort: a failure is logged at debug and never fails the
// mount), then provides the attachments service with a Store built from
// Config. Load it with nil (defaults), a *Config or a full Config value
// (start from DefaultConfig: zero numeric fields fail validation).
var Plugin = kernel.Define[Config](ID, apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

func apply(kc *kernel.Context, cfg Config) error {
	s, err := New(cfg, kc.Logger())
	if err != nil {
		return err
	}
	s.mountSweep()
	_, err = attachments.Service.Provide(kc, s)
	return err
}

// mountSweep runs the startup sweep with the process start as the cutoff
// and logs its outcome at debug level.
func (s *Store) mountSweep() int {
	n, err := sweep(s.root, processStart)
	if err != nil {
		s.log.Debug(fmt.Sprintf("attachment-local: orphaned-staging sweep skipped: %v", err))
		return n
	}
	if n > 0 {
		s.log.Debug(fmt.Sprintf("attachment-local: swept %d crash-orphaned staging files", n))
	}
	return n
}
