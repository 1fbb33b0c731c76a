package fslocal

import (
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// DefaultDiffBasisMaxBytes is the default of Config.DiffBasisMaxBytes (10 MiB).
const DefaultDiffBasisMaxBytes = hostfs.DefaultDiffBasisMaxBytes

// MaxDiffBasisBytes is the largest accepted Config.DiffBasisMaxBytes (2^53-1).
const MaxDiffBasisBytes = hostfs.MaxDiffBasisBytes

// DefaultMaxFileBytes is the default of Config.MaxFileBytes (64 MiB).
const DefaultMaxFileBytes = hostfs.DefaultMaxFileBytes

// Config is the configuration of the fs-local plugin: the host provider's
// options, cwd (the base of relative paths when a call supplies none, not a
// boundary; default the process working directory at load),
// diffBasisMaxBytes (the exclusive bound on both sides of WriteText's diff
// basis; default 10485760) and maxFileBytes (the inclusive bound on what a
// write publishes and on the file an edit reads and produces; default
// 67108864) and encodings (the charsets of files by glob, docs/encodings.md;
// default none).
type Config hostfs.Config

// Defaults sets the default values (called before decoding).
func (c *Config) Defaults() { (*hostfs.Config)(c).Defaults() }

// Validate checks the configuration (docs/fs.md lists the messages).
func (c Config) Validate() error { return hostfs.Config(c).Validate() }

// UnmarshalYAML decodes a config mapping strictly (an unknown key is the
// decoder's usual "field ... not found in type fslocal.Config" error, with its
// line) and refuses a diffBasisMaxBytes that is not an
// integer in range (1.5, 1e300, .inf) with the validation message instead of
// letting the decoder truncate it. Integral floats (8.0, 1e3) are accepted.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	return (*hostfs.Config)(c).DecodeYAML(n, "fslocal.Config")
}
