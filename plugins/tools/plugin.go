package tools

import (
	"errors"
	"fmt"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
)

// Presentation modes of Config.Mode.
const (
	ModeNative = "native"
	ModeCode   = "code"
	ModeBoth   = "both"
)

// Config is the "tools" plugin configuration (decoded strictly).
type Config struct {
	// Mode is how tools are presented to the model: "native" (default) sends
	// every schema. "code" and "both" need a code runtime, which this build
	// does not have: loading fails with a message that says so.
	Mode string `json:"mode" yaml:"mode"`
	// MaxParallelSubCalls caps a code-mode program's overlapping sub-calls
	// (default 10; a positive integer). Kept for configuration compatibility.
	MaxParallelSubCalls int `json:"maxParallelSubCalls" yaml:"maxParallelSubCalls"`
	// Expose lists which tools a session sees by its model and client, first match wins; empty
	// (default): every tool (see ExposeRule).
	Expose []ExposeRule `json:"expose,omitempty" yaml:"expose"`
}

// Defaults sets mode "native" and maxParallelSubCalls 10.
func (c *Config) Defaults() {
	c.Mode = ModeNative
	c.MaxParallelSubCalls = 10
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	switch c.Mode {
	case ModeNative, ModeCode, ModeBoth:
	default:
		return fmt.Errorf(`tools: mode must be one of "native", "code" or "both" (got %q)`, c.Mode)
	}
	if c.MaxParallelSubCalls < 1 {
		return errors.New("maxParallelSubCalls must be a positive integer")
	}
	return validateExpose(c.Expose)
}

// Plugin is the "tools" module: it provides Service (the Runtime).
var Plugin = kernel.Define[Config]("tools", apply)

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module("tools", kernelfx.Plugin(Plugin))

// init registers Plugin in kernel.DefaultCatalog for hosts that import this
// package without fx.
func init() { kernel.Register(Plugin) }

func apply(kc *kernel.Context, cfg Config) error {
	if cfg.Mode != ModeNative {
		return fmt.Errorf(`tools: mode %q requires a code runtime — none is available in this build; set tools mode to "native"`, cfg.Mode)
	}
	_, err := Service.Provide(kc, NewRuntime(kc, cfg))
	return err
}
