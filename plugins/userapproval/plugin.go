package userapproval

import (
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ID is the catalog name of the plugin.
const ID = "user-approval"

// Plugin is the user-approval module: it provides tools.Approval with a Service built from
// Config, drops a session's policy override when tools.SessionEnded reports it, and drops every
// override when disposed, and contributes its
// approval:policy statement to tools.Instructions. It injects nothing and mounts immediately.
var Plugin = kernel.Define[Config](ID, apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

func apply(kc *kernel.Context, cfg Config) error {
	s, err := New(kc, cfg, kc.Logger())
	if err != nil {
		return err
	}
	if err := s.overrides.Bind(kc); err != nil {
		return err
	}
	if _, err := tools.ContributeInstruction(kc, ContextName, ContextOrder, s.ContextText); err != nil {
		return err
	}
	_, err = tools.Approval.Provide(kc, s)
	return err
}
