package fssandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// DefaultProtectedPaths is the default of Config.ProtectedPaths.
var DefaultProtectedPaths = []string{".git"}

// Config is the configuration of the fs-sandbox plugin: the local provider's
// options, unchanged, plus the protected paths. The mode and the fallback
// workspace root are not here: the sandbox policy service owns them.
type Config struct {
	// Cwd is the base of relative paths when a call supplies none (a
	// resolution default, not a boundary). Default: the process working
	// directory at load.
	Cwd string `yaml:"cwd"`
	// DiffBasisMaxBytes bounds the diff basis of WriteText, as in fs-local.
	// Default 10485760.
	DiffBasisMaxBytes int64 `yaml:"diffBasisMaxBytes"`
	// MaxFileBytes bounds the files write and edit hold in memory, as in
	// fs-local. Default 67108864.
	MaxFileBytes int64 `yaml:"maxFileBytes"`
	// ProtectedPaths are paths, relative to each writable root (and to each
	// ancestor of the workspace root inside the writable root that contains
	// it), that stay read-only under workspace-write (the entry itself and
	// everything beneath it, also when the entry does not exist yet; matched
	// as git matches ".git", case folded). The ".git" entry also protects
	// every nested repository, at any depth (see the package doc). Default
	// [".git"]; an empty list protects nothing; nil means the default.
	ProtectedPaths []string `yaml:"protectedPaths"`
	// Encodings declares the charsets of files by glob, as in fs-local (docs/encodings.md).
	// Default none.
	Encodings []charset.Rule `yaml:"encodings"`
}

// Defaults sets the default values (called before decoding).
func (c *Config) Defaults() {
	var local hostfs.Config
	local.Defaults()
	c.Cwd, c.DiffBasisMaxBytes, c.MaxFileBytes = local.Cwd, local.DiffBasisMaxBytes, local.MaxFileBytes
	c.ProtectedPaths = append([]string(nil), DefaultProtectedPaths...)
}

// Validate checks the host provider's options with fs-local's messages, and
// that every protected path is a clean relative path that stays inside its root.
func (c Config) Validate() error {
	if err := c.local().Validate(); err != nil {
		return err
	}
	for i, p := range c.ProtectedPaths {
		if !validProtectedPath(p) {
			return fmt.Errorf("fs-sandbox: protectedPaths[%d] must be a clean relative path inside the writable root, got %q", i, p)
		}
	}
	return nil
}

// local is the host provider's part of the configuration.
func (c Config) local() hostfs.Config {
	return hostfs.Config{Cwd: c.Cwd, DiffBasisMaxBytes: c.DiffBasisMaxBytes, MaxFileBytes: c.MaxFileBytes, Encodings: c.Encodings}
}

// validProtectedPath accepts "x", "x/y": non-empty, relative, clean, no NUL,
// not "." and not climbing with "..".
func validProtectedPath(p string) bool {
	return p != "" && p != "." && !filepath.IsAbs(p) && filepath.Clean(p) == p &&
		strings.IndexByte(p, 0) < 0 && p != ".." && !strings.HasPrefix(p, "../")
}

// UnmarshalYAML decodes a config mapping strictly: an unknown key is the
// decoder's usual "field ... not found in type" error with its line, and the
// host provider's keys are decoded by its own decoder, as fs-local decodes
// them (so a fractional diffBasisMaxBytes is refused with its validation
// message).
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		type plain Config // no UnmarshalYAML: the decoder's own type error
		return n.Decode((*plain)(c))
	}
	localNode := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var unknown []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "cwd", "diffBasisMaxBytes", "maxFileBytes", "encodings":
			localNode.Content = append(localNode.Content, k, v)
		case "protectedPaths":
			var paths []string
			if err := v.Decode(&paths); err != nil {
				return err
			}
			c.ProtectedPaths = paths
		default:
			unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type fssandbox.Config", k.Line, k.Value))
		}
	}
	if len(unknown) > 0 {
		return &yaml.TypeError{Errors: unknown}
	}
	local := c.local()
	if err := local.DecodeYAML(localNode, "fssandbox.Config"); err != nil {
		return err
	}
	c.Cwd, c.DiffBasisMaxBytes, c.MaxFileBytes, c.Encodings = local.Cwd, local.DiffBasisMaxBytes, local.MaxFileBytes, local.Encodings
	return nil
}
