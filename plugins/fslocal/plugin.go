package fslocal

import (
	"os"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// ID is the catalog name of the plugin.
const ID = "fs-local"

// Plugin is the fs-local module: it provides the fs service with a Provider
// built from Config. Load it with nil (defaults), a *Config from NewConfig or
// a full Config value (a Config literal must set DiffBasisMaxBytes: 0 fails
// validation, as in YAML).
var Plugin = kernel.Define[Config](ID, apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// Hosts that blank-import the package find the plugin in kernel.DefaultCatalog.
func init() { kernel.Register(Plugin) }

func apply(kc *kernel.Context, cfg Config) error {
	p, err := New(cfg, kc.Logger())
	if err != nil {
		return err
	}
	_, err = fs.Service.Provide(kc, p)
	return err
}

// defaultCwd is the process working directory ("" when unknown; New then
// retries and fails with a clear error).
func defaultCwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}
