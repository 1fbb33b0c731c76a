package fslocal

import (
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
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

// Provider is the host filesystem provider the plugin provides (package
// hostfs, named here for hosts outside the module).
type Provider = hostfs.Provider

// New returns the Provider of cfg. A zero Cwd means the process working
// directory (a relative Cwd is made absolute against it); a zero
// DiffBasisMaxBytes means the default. A nil logger means zap.NewNop(). The
// first provider of a process sweeps the staging residue that killed
// processes left (docs/fs.md, "Crash residue").
func New(cfg Config, log *zap.Logger) (*Provider, error) {
	return hostfs.New(hostfs.Config(cfg), log)
}

func apply(kc *kernel.Context, cfg Config) error {
	p, err := New(cfg, kc.Logger())
	if err != nil {
		return err
	}
	p.SetPublishHook(hostfs.KernelPublishHook(kc))
	_, err = fs.Service.Provide(kc, p)
	return err
}
