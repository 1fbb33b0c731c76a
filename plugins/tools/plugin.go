package tools

import (
	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
)

// Config is the "tools" plugin configuration (decoded strictly).
type Config struct {
	// Expose lists which tools a session sees by its model and client, first match wins; empty
	// (default): every tool (see ExposeRule).
	Expose []ExposeRule `json:"expose,omitempty" yaml:"expose"`
}

// Validate checks the configuration.
func (c *Config) Validate() error { return validateExpose(c.Expose) }

// Plugin is the "tools" module: it provides Service (the Runtime).
var Plugin = kernel.Define[Config]("tools", apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module("tools", kernelfx.Plugin(Plugin))

func apply(kc *kernel.Context, cfg Config) error {
	rt := NewRuntime(kc)
	rt.expose = cfg.Expose
	_, err := Service.Provide(kc, rt)
	return err
}
