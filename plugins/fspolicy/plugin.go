package fspolicy

import (
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
)

// ID is the catalog name of the plugin.
const ID = "fs-observation-policy"

// Config is the (empty) configuration: any key is an error under strict
// decoding.
type Config struct{}

// Plugin is the fs-observation-policy module. It injects nothing, provides no
// service, does no I/O and mounts immediately (see Install).
var Plugin = kernel.Define[Config](ID, func(kc *kernel.Context, _ Config) error {
	_, err := Install(kc)
	return err
})

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// Hosts that blank-import the package find the plugin in kernel.DefaultCatalog.
func init() { kernel.Register(Plugin) }
