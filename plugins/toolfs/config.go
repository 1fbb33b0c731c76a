package toolfs

import (
	"fmt"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// Default read caps.
const (
	// DefaultReadLimit is the default and maximum number of lines of one read.
	DefaultReadLimit = 2000
	// DefaultReadMaxLineLength is the number of code points kept per line before truncation.
	DefaultReadMaxLineLength = 2000
	// DefaultReadMaxBytes is the byte cap on the selected lines of one read (50 KiB).
	DefaultReadMaxBytes = 50 * 1024
	// DefaultReadStreamMinSize is the size from which a file is streamed instead of read whole (10 MiB).
	DefaultReadStreamMinSize = 10 * 1024 * 1024
	// DefaultResultBudget is the byte budget of one result's whole text for a client that is not
	// known to take more (docs/tool-fs.md "The result budget").
	DefaultResultBudget = filetool.DefaultBudget
)

// Config is the configuration of the tool-fs plugin. Every key is a whole number (confint.Int: a
// fraction fails the decoding) and must be positive (`tool-fs: <key> must be a positive integer`).
// Go callers should start from DefaultConfig: a zero field is invalid, not "default".
type Config struct {
	// ReadLimit is the default and maximum limit of one read; it is also named in the schema.
	ReadLimit confint.Int `json:"readLimit" yaml:"readLimit"`
	// ReadMaxLineLength is the number of code points kept per line before the truncation suffix.
	ReadMaxLineLength confint.Int `json:"readMaxLineLength" yaml:"readMaxLineLength"`
	// ReadMaxBytes caps the bytes of the selected lines of one read.
	ReadMaxBytes confint.Int `json:"readMaxBytes" yaml:"readMaxBytes"`
	// ReadStreamMinSize: files whose size is at least this (or unknown) are streamed.
	ReadStreamMinSize confint.Int `json:"readStreamMinSize" yaml:"readStreamMinSize"`
	// ResultBudget caps the bytes of one result's whole text for a client not in
	// ResultBudgetByClient.
	ResultBudget confint.Int `json:"resultBudget" yaml:"resultBudget"`
	// ResultBudgetByClient is the budget of the clients it names (by clientInfo name); the
	// entries given are merged over the built-in ones (filetool.KnownBudgets).
	ResultBudgetByClient map[string]confint.Int `json:"resultBudgetByClient" yaml:"resultBudgetByClient"`
}

// DefaultConfig returns the configuration with every default applied.
func DefaultConfig() Config {
	var c Config
	c.Defaults()
	return c
}

// Defaults fills every field with its default (the kernel calls it before decoding).
func (c *Config) Defaults() {
	c.ReadLimit = DefaultReadLimit
	c.ReadMaxLineLength = DefaultReadMaxLineLength
	c.ReadMaxBytes = DefaultReadMaxBytes
	c.ReadStreamMinSize = DefaultReadStreamMinSize
	c.ResultBudget = DefaultResultBudget
	c.ResultBudgetByClient = filetool.KnownBudgets[confint.Int]()
}

// Validate checks, in order, that readLimit, readMaxLineLength, readMaxBytes, readStreamMinSize,
// resultBudget and every value of resultBudgetByClient are positive integers.
func (c *Config) Validate() error {
	for _, f := range []struct {
		name string
		v    confint.Int
	}{
		{"readLimit", c.ReadLimit},
		{"readMaxLineLength", c.ReadMaxLineLength},
		{"readMaxBytes", c.ReadMaxBytes},
		{"readStreamMinSize", c.ReadStreamMinSize},
	} {
		if f.v < 1 {
			return fmt.Errorf("tool-fs: %s must be a positive integer", f.name)
		}
	}
	_, err := filetool.NewBudget(ID, c.ResultBudget, c.ResultBudgetByClient)
	return err
}

// isPositiveInteger reports whether v is finite, integral and at least 1.
func isPositiveInteger(v float64) bool {
	return texts.IsInteger(v) && v >= 1
}

// maxSafeInteger is 2^53, the largest count the caps need to represent exactly; larger values
// saturate so that window arithmetic cannot overflow.
const maxSafeInteger = 1 << 53

// toInt converts a validated positive integer to int, saturating at maxSafeInteger.
func toInt(v float64) int {
	if v >= maxSafeInteger {
		return maxSafeInteger
	}
	return int(v)
}

// capInt converts a validated positive cap to int, saturating at maxSafeInteger.
func capInt(v confint.Int) int { return int(min(v, maxSafeInteger)) }

// caps are the resolved read caps and the result budgets.
type caps struct {
	limit, maxLineLength, maxBytes int
	streamMinSize                  int64
	budget                         filetool.Budget
}

func (c Config) caps() caps {
	table, _ := filetool.NewBudget(ID, c.ResultBudget, c.ResultBudgetByClient) // checked by Validate
	return caps{
		budget:        table,
		limit:         capInt(c.ReadLimit),
		maxLineLength: capInt(c.ReadMaxLineLength),
		maxBytes:      capInt(c.ReadMaxBytes),
		streamMinSize: int64(capInt(c.ReadStreamMinSize)),
	}
}
