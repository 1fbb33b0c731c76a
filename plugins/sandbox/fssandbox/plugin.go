package fssandbox

import (
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// ID is the catalog name of the plugin.
const ID = "fs-sandbox"

// Plugin is the fs-sandbox module: it injects the sandbox policy service and
// provides the fs service with a Provider built from Config (load it instead
// of fs-local). Load it with nil (defaults) or a full Config value or pointer
// (a Config literal must set DiffBasisMaxBytes, e.g. to its default
// 10485760: 0 fails validation, as in fs-local; or call Defaults first). It
// stays pending until a policy service is provided and reloads when the
// provider of that service changes.
var Plugin = kernel.Define[Config](ID, apply, sandbox.PolicyService.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

func apply(kc *kernel.Context, cfg Config) error {
	p, err := New(cfg, sandbox.PolicyService.Must(kc), kc.Logger())
	if err != nil {
		return err
	}
	p.local.SetPublishHook(hostfs.KernelPublishHook(kc))
	_, err = fs.Service.Provide(kc, p)
	return err
}
