package modelcatalog

import (
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ID is the catalog name of the plugin.
const ID = "model-catalog"

// Plugin is the model-catalog module: it provides tools.Models with the Catalog built from
// Config. Load it with nil (defaults), a Config or a *Config.
var Plugin = kernel.Define[Config](ID, apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

func apply(kc *kernel.Context, cfg Config) error {
	c, err := New(cfg)
	if err != nil {
		return err
	}
	if _, err := tools.Models.Provide(kc, tools.ModelCatalog(c)); err != nil {
		return err
	}
	kc.Logger().Debug("model catalog ready", zap.String("defaultModel", c.DefaultModel()), zap.Int("models", len(c.models)))
	return nil
}
