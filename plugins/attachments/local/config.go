package local

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/internal/statedir"
)

// Defaults (docs/attachments.md "Configuration").
const (
	DefaultMaxImageBytes               = 20 * 1024 * 1024
	DefaultMaxImagesPerMessage         = 20
	DefaultMaxMessageImageBytes        = 200 * 1024 * 1024
	DefaultMaxImagePixels              = 64_000_000
	DefaultMaxImageDimension           = 8192
	DefaultNormalizedImageMaxDimension = 2048
	DefaultNormalizedImageMaxBytes     = 4 * 1024 * 1024
	DefaultImageCompressionConcurrency = 2
	// MaxImageCompressionConcurrency is the largest accepted concurrency.
	MaxImageCompressionConcurrency = 8
)

// Defaults of Cordon's own options (docs/attachments.md).
const (
	// DefaultImageTransformMemoryBytes is 2 GiB: above the largest
	// estimate of any source the default admission limits admit (a
	// 64-megapixel progressive CMYK JPEG with an orientation tag, about
	// 1.8 GiB), so the default never refuses an admissible image, while
	// two typical 64-megapixel conversions (0.4 to 0.8 GiB each) still run
	// side by side.
	DefaultImageTransformMemoryBytes = 2 << 30
	// DefaultImageTransformMemoryWaitMs bounds the wait for the budget.
	DefaultImageTransformMemoryWaitMs = 120_000
	// DefaultMaxStoreBytes is the size budget of the stored objects, 1 GiB.
	DefaultMaxStoreBytes = 1 << 30
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the largest
// accepted numeric option.
const maxSafeInteger = 1<<53 - 1

// Config is the configuration of the attachment-local plugin. Every numeric option is an integer >= 1;
// ImageCompressionConcurrency is at most 8. Go callers start from
// DefaultConfig: a zero numeric field is invalid, not "default".
type Config struct {
	// Home is the explicit home; nil follows $CORDON_HOME (when not blank),
	// then the user's state directory ($XDG_STATE_HOME/cordon when
	// XDG_STATE_HOME is absolute, else ~/.local/state/cordon). A leading
	// "~", "~/" or "~\" is expanded; the result is made absolute, so an
	// explicit "" is the working directory.
	Home *string `yaml:"home"`
	// MaxImageBytes caps one source image (refused, not shrunk).
	MaxImageBytes int `yaml:"maxImageBytes"`
	// MaxImagesPerMessage caps the images of one batch.
	MaxImagesPerMessage int `yaml:"maxImagesPerMessage"`
	// MaxMessageImageBytes caps the summed source bytes of one batch.
	MaxMessageImageBytes int `yaml:"maxMessageImageBytes"`
	// MaxImagePixels caps the oriented width×height of one source.
	MaxImagePixels int `yaml:"maxImagePixels"`
	// MaxImageDimension caps each oriented side of one source.
	MaxImageDimension int `yaml:"maxImageDimension"`
	// NormalizedImageMaxDimension is the long-edge cap of the stored image.
	NormalizedImageMaxDimension int `yaml:"normalizedImageMaxDimension"`
	// NormalizedImageMaxBytes is the byte cap of the stored image.
	NormalizedImageMaxBytes int `yaml:"normalizedImageMaxBytes"`
	// ImageCompressionConcurrency is the number of simultaneous transforms
	// per store (1..8).
	ImageCompressionConcurrency int `yaml:"imageCompressionConcurrency"`
	// ImageTransformMemoryBytes is the process-wide memory budget of image
	// transforms: each admission reserves its estimate (from the header,
	// before decoding) and waits in FIFO order while the budget is full; an
	// image whose estimate alone exceeds it is IMAGE_OVER_MEMORY_BUDGET.
	// Stores configured with the same value share one budget.
	ImageTransformMemoryBytes int `yaml:"imageTransformMemoryBytes"`
	// ImageTransformMemoryWaitMs bounds the wait for the budget, in
	// milliseconds; past it the admission fails with ATTACHMENT_BUSY.
	ImageTransformMemoryWaitMs int `yaml:"imageTransformMemoryWaitMs"`
	// MaxStoreBytes is the size budget of the stored objects: past it the
	// least recently used objects not in use are deleted.
	MaxStoreBytes int `yaml:"maxStoreBytes"`
}

// DefaultConfig returns the configuration with every default applied.
func DefaultConfig() Config {
	var c Config
	c.Defaults()
	return c
}

// Defaults fills every numeric field with its default and leaves Home
// unset (the kernel calls it before decoding).
func (c *Config) Defaults() {
	*c = Config{
		MaxImageBytes:               DefaultMaxImageBytes,
		MaxImagesPerMessage:         DefaultMaxImagesPerMessage,
		MaxMessageImageBytes:        DefaultMaxMessageImageBytes,
		MaxImagePixels:              DefaultMaxImagePixels,
		MaxImageDimension:           DefaultMaxImageDimension,
		NormalizedImageMaxDimension: DefaultNormalizedImageMaxDimension,
		NormalizedImageMaxBytes:     DefaultNormalizedImageMaxBytes,
		ImageCompressionConcurrency: DefaultImageCompressionConcurrency,
		ImageTransformMemoryBytes:   DefaultImageTransformMemoryBytes,
		ImageTransformMemoryWaitMs:  DefaultImageTransformMemoryWaitMs,
		MaxStoreBytes:               DefaultMaxStoreBytes,
	}
}

// numeric lists the numeric options in declaration order.
func (c *Config) numeric() []struct {
	name string
	v    *int
} {
	return []struct {
		name string
		v    *int
	}{
		{"maxImageBytes", &c.MaxImageBytes},
		{"maxImagesPerMessage", &c.MaxImagesPerMessage},
		{"maxMessageImageBytes", &c.MaxMessageImageBytes},
		{"maxImagePixels", &c.MaxImagePixels},
		{"maxImageDimension", &c.MaxImageDimension},
		{"normalizedImageMaxDimension", &c.NormalizedImageMaxDimension},
		{"normalizedImageMaxBytes", &c.NormalizedImageMaxBytes},
		{"imageCompressionConcurrency", &c.ImageCompressionConcurrency},
		{"imageTransformMemoryBytes", &c.ImageTransformMemoryBytes},
		{"imageTransformMemoryWaitMs", &c.ImageTransformMemoryWaitMs},
		{"maxStoreBytes", &c.MaxStoreBytes},
	}
}

// concurrencyError refuses a concurrency value.
func concurrencyError() error {
	return fmt.Errorf("attachment-local: imageCompressionConcurrency must be an integer from 1 through %d", MaxImageCompressionConcurrency)
}

// positiveError refuses any other numeric option.
func positiveError(name string) error {
	return fmt.Errorf("attachment-local: %s must be a positive integer", name)
}

// notInteger refuses a numeric option that is not an integer scalar (the shared decoder,
// confint.Int, decides) with the option's range message alone, as the contract words it
// (docs/attachments.md "Configuration"): not the decoder's error, which the loader would
// report instead.
func notInteger(name string) error {
	if name == "imageCompressionConcurrency" {
		return concurrencyError()
	}
	return positiveError(name)
}

// Validate checks every numeric option (an integer from 1 to 2^53-1) in
// declaration order, and the concurrency (1..8) with its own message.
func (c Config) Validate() error {
	for _, f := range c.numeric() {
		if f.name == "imageCompressionConcurrency" {
			if *f.v < 1 || *f.v > MaxImageCompressionConcurrency {
				return concurrencyError()
			}
			continue
		}
		if *f.v < 1 || *f.v > maxSafeInteger {
			return positiveError(f.name)
		}
	}
	return nil
}

// UnmarshalYAML decodes a config mapping strictly: an unknown key is the
// decoder's usual "field ... not found in type" error with its line; a
// numeric option is an integer scalar (confint.Int: 8.0, 1.5, .inf or a
// string is refused with the option's range message, never truncated), whose range Validate checks; home is a string (null = unset). The key tohHome, renamed to
// home, is refused with a message naming the new key.
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: attachment-local config must be a mapping", n.Line)}}
	}
	var unknown []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "tohHome":
			return errors.New(`attachment-local: config key "tohHome" was renamed to "home"`)
		case "home":
			if v.ShortTag() == "!!null" {
				c.Home = nil
				continue
			}
			var s string
			if err := v.Decode(&s); err != nil {
				return err
			}
			c.Home = &s
			continue
		}
		found := false
		for _, f := range c.numeric() {
			if f.name != k.Value {
				continue
			}
			found = true
			var x confint.Int
			if v.Decode(&x) != nil {
				return notInteger(f.name)
			}
			*f.v = int(x)
		}
		if !found {
			unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type local.Config", k.Line, k.Value))
		}
	}
	if len(unknown) > 0 {
		return &yaml.TypeError{Errors: unknown}
	}
	return nil
}

// envLookup is os.LookupEnv (replaced in tests).
var envLookup = os.LookupEnv

// resolveHome is the home rule of docs/attachments.md "Configuration": an
// explicit home (even ""), else $CORDON_HOME when not blank, else the state
// directory.
func resolveHome(explicit *string) (string, error) {
	var p string
	switch {
	case explicit != nil:
		p = *explicit
	default:
		if v, ok := envLookup("CORDON_HOME"); ok && strings.TrimSpace(v) != "" {
			p = v
		} else {
			d, err := stateHome()
			if err != nil {
				return "", err
			}
			p = filepath.Join(d, "cordon")
		}
	}
	p, err := expandTilde(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// stateHome is the user's state directory (package statedir).
func stateHome() (string, error) {
	d, err := statedir.StateHome(envLookup)
	if err != nil {
		return "", fmt.Errorf("attachment-local: %w", err)
	}
	return d, nil
}

// userHome is statedir.Home of the plugin's environment.
func userHome() (string, error) {
	h, err := statedir.Home(envLookup)
	if err != nil {
		return "", fmt.Errorf("attachment-local: %w", err)
	}
	return h, nil
}

// expandTilde expands a leading "~", "~/" or "~\".
func expandTilde(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, `~\`) {
		return p, nil
	}
	home, err := userHome()
	if err != nil {
		return "", err
	}
	if p == "~" {
		return home, nil
	}
	return filepath.Join(home, p[2:]), nil
}
