package fspolicy

import (
	"fmt"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
)

// ID is the catalog name of the plugin.
const ID = "fs-observation-policy"

// Staleness is the rule that decides whether a file changed since it was observed (docs/fs.md
// "Staleness").
type Staleness string

// The staleness rules.
const (
	// StalenessVersion: the version token alone.
	StalenessVersion Staleness = "version"
	// StalenessContent (the default): over another version, what was seen is compared with the
	// file's text now.
	StalenessContent Staleness = "content"
	// StalenessRegion: as content for write; an edit lands when the lines it replaces were seen
	// and are unchanged, whatever else changed.
	StalenessRegion Staleness = "region"
)

// Config is the configuration of the plugin; unknown keys are errors under strict decoding.
type Config struct {
	// Staleness is "version", "content" (default) or "region".
	Staleness Staleness `json:"staleness" yaml:"staleness"`
}

// Defaults fills the defaults (the kernel calls it before decoding).
func (c *Config) Defaults() { c.Staleness = StalenessContent }

// Validate refuses an unknown staleness rule.
func (c *Config) Validate() error {
	switch c.Staleness {
	case StalenessVersion, StalenessContent, StalenessRegion:
		return nil
	}
	return fmt.Errorf("%s: staleness must be \"version\", \"content\" or \"region\", not %q", ID, c.Staleness)
}

// Plugin is the fs-observation-policy module. It injects nothing, provides no
// service, does no I/O and mounts immediately (see Install).
var Plugin = kernel.Define[Config](ID, func(kc *kernel.Context, c Config) error {
	_, err := InstallWith(kc, c.Staleness)
	return err
})

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))
