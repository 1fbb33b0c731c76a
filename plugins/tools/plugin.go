package tools

import (
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
)

// Config is the "tools" plugin configuration: it has no keys, and strict decoding refuses any.
type Config struct{}

// Plugin is the "tools" module: it provides Service (the Runtime).
var Plugin = kernel.Define[Config]("tools", apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module("tools", kernelfx.Plugin(Plugin))

func apply(kc *kernel.Context, _ Config) error {
	_, err := Service.Provide(kc, NewRuntime(kc))
	return err
}
