package hostfs

import (
	"fmt"
	"math"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// DefaultDiffBasisMaxBytes is the default of Config.DiffBasisMaxBytes (10 MiB).
const DefaultDiffBasisMaxBytes = fs.DefaultDiffBasisMaxBytes

// MaxDiffBasisBytes is the largest accepted Config.DiffBasisMaxBytes: the
// largest safe integer (2^53-1), which is also far below Go's maximum string
// size on 64-bit platforms.
const MaxDiffBasisBytes int64 = 1<<53 - 1

// DefaultMaxFileBytes is the default of Config.MaxFileBytes (64 MiB).
const DefaultMaxFileBytes int64 = 64 << 20

// Config is the configuration of a Provider: the options fs-local and
// fs-sandbox share (their YAML keys cwd, diffBasisMaxBytes, maxFileBytes and encodings).
type Config struct {
	// Cwd is the base of relative paths when a call supplies none. It is a
	// resolution default only, not a containment boundary. Default: the process
	// working directory at load.
	Cwd string `yaml:"cwd"`
	// DiffBasisMaxBytes is the exclusive bound, in bytes, on both sides of the
	// diff basis WriteText computes. Default 10485760.
	DiffBasisMaxBytes int64 `yaml:"diffBasisMaxBytes"`
	// MaxFileBytes is the inclusive bound, in bytes, on a file a mutation
	// holds in memory: the content a write publishes, the file an edit reads
	// and the file it would produce (docs/fs.md). Default 67108864; zero
	// means the default.
	MaxFileBytes int64 `yaml:"maxFileBytes"`
	// Encodings declares the charset of the files matching each glob (relative to Cwd,
	// .gitignore-style; the first match wins; a WHATWG label), consulted after a byte order
	// mark and before .editorconfig (docs/encodings.md). Default none.
	Encodings []charset.Rule `yaml:"encodings"`
}

// Defaults sets the default values (called before decoding).
func (c *Config) Defaults() {
	c.Cwd = defaultCwd()
	c.DiffBasisMaxBytes = DefaultDiffBasisMaxBytes
	c.MaxFileBytes = DefaultMaxFileBytes
}

// Validate checks the configuration with the reference message.
func (c Config) Validate() error {
	if c.DiffBasisMaxBytes <= 0 || c.DiffBasisMaxBytes > MaxDiffBasisBytes {
		return diffBasisError()
	}
	if c.MaxFileBytes < 0 || c.MaxFileBytes > MaxDiffBasisBytes {
		return maxFileBytesError()
	}
	if _, err := charset.NewResolver(c.Cwd, c.Encodings); err != nil {
		return fmt.Errorf("fs-local: %w", err)
	}
	return nil
}

// diffBasisError is the reference's refusal of a diffBasisMaxBytes value.
func diffBasisError() error { return safeIntegerError("diffBasisMaxBytes") }

// maxFileBytesError is the refusal of a maxFileBytes value (negative, or
// above the largest safe integer), in the words of diffBasisError.
func maxFileBytesError() error { return safeIntegerError("maxFileBytes") }

func safeIntegerError(key string) error {
	return fmt.Errorf("fs-local: %s must be a positive safe integer no greater than %d", key, MaxDiffBasisBytes)
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

// DecodeYAML decodes a config mapping into c strictly: an unknown key is the
// decoder's usual "field ... not found in type <typeName>" error, with its
// line (typeName is the plugin's config type, e.g. "fslocal.Config"); and,
// like the reference, a diffBasisMaxBytes (or maxFileBytes) that is not an
// integer in range (1.5, 1e300, .inf) is refused with the validation message instead of being
// truncated by the decoder. Integral floats (8.0, 1e3) are accepted.
func (c *Config) DecodeYAML(n *yaml.Node, typeName string) error {
	fileBytesSet := false
	if n.Kind == yaml.MappingNode {
		var unknown []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "cwd":
			case "encodings":
				unknown = append(unknown, unknownRuleKeys(v, typeName)...)
			case "diffBasisMaxBytes":
				if !integral(v) {
					return diffBasisError()
				}
			case "maxFileBytes":
				if !integral(v) {
					return maxFileBytesError()
				}
				fileBytesSet = true
			default:
				unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type %s", k.Line, k.Value, typeName))
			}
		}
		if len(unknown) > 0 {
			return &yaml.TypeError{Errors: unknown}
		}
	}
	if err := n.Decode(c); err != nil {
		return err
	}
	if fileBytesSet && c.MaxFileBytes == 0 {
		return maxFileBytesError() // zero means the default only to New
	}
	return nil
}

// unknownRuleKeys lists the keys of encodings entries other than glob and charset, in the
// decoder's words, so that a misspelt key is an error rather than an empty charset.
func unknownRuleKeys(v *yaml.Node, typeName string) []string {
	var unknown []string
	if v.Kind != yaml.SequenceNode {
		return nil // the decoder's own type error
	}
	for _, e := range v.Content {
		if e.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(e.Content); i += 2 {
			if k := e.Content[i]; k.Value != "glob" && k.Value != "charset" {
				unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type %s.encodings", k.Line, k.Value, typeName))
			}
		}
	}
	return unknown
}

// integral reports whether a float scalar is a whole number within the safe
// range; any other node is left to the decoder.
func integral(v *yaml.Node) bool {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!float" {
		return true
	}
	var f float64
	if err := v.Decode(&f); err != nil {
		return true
	}
	return texts.IsInteger(f) && math.Abs(f) <= float64(MaxDiffBasisBytes)
}
