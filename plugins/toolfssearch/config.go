package toolfssearch

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/internal/spill"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// The defaults of the configuration.
const (
	DefaultGlobMaxResults   = 100
	DefaultGrepMaxMatches   = 250
	DefaultGrepMaxLineBytes = 2000
	DefaultTimeoutMs        = 30000
	DefaultMaxFilesVisited  = 500000
	// DefaultSpillMaxBytes bounds one spill file (16 MiB).
	DefaultSpillMaxBytes = 16 << 20
	// DefaultSpillQuotaBytes bounds the spill directory (128 MiB).
	DefaultSpillQuotaBytes = 128 << 20
	// DefaultResultBudget is the byte budget of one result's whole text for a client that is not
	// known to take more (docs/search.md "The result budget").
	DefaultResultBudget = filetool.DefaultBudget
)

// Config is the configuration of tool-fs-search. The counts, limits and budgets are whole numbers
// (confint.Int: a fraction fails the decoding) and must be positive
// (`tool-fs-search: <key> must be a positive integer`). Go callers start from DefaultConfig: a zero
// count is invalid.
type Config struct {
	// GlobMaxResults is the number of paths glob shows inline.
	GlobMaxResults confint.Int `json:"globMaxResults" yaml:"globMaxResults"`
	// GrepMaxMatches is the number of matching lines grep shows inline.
	GrepMaxMatches confint.Int `json:"grepMaxMatches" yaml:"grepMaxMatches"`
	// GrepMaxLineBytes is the number of bytes kept of each matching line.
	GrepMaxLineBytes confint.Int `json:"grepMaxLineBytes" yaml:"grepMaxLineBytes"`
	// SampleOverCapGlobResults samples an over-cap glob across top-level entries (else: the head).
	SampleOverCapGlobResults bool `json:"sampleOverCapGlobResults" yaml:"sampleOverCapGlobResults"`
	// TimeoutMs abandons a search after this many milliseconds (SEARCH_ABORTED).
	TimeoutMs confint.Int `json:"timeoutMs" yaml:"timeoutMs"`
	// MaxFilesVisited stops a walk after this many entries.
	MaxFilesVisited confint.Int `json:"maxFilesVisited" yaml:"maxFilesVisited"`
	// IncludeIgnored also lists and searches the files ignore rules exclude.
	IncludeIgnored bool `json:"includeIgnored" yaml:"includeIgnored"`
	// Spill saves over-cap results in full to a spill file.
	Spill bool `json:"spill" yaml:"spill"`
	// SpillMaxBytes bounds one spill file; a longer result is cut and says so.
	SpillMaxBytes confint.Int `json:"spillMaxBytes" yaml:"spillMaxBytes"`
	// SpillQuotaBytes bounds the spill directory; the oldest files go first.
	SpillQuotaBytes confint.Int `json:"spillQuotaBytes" yaml:"spillQuotaBytes"`
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
	*c = Config{
		GlobMaxResults:           DefaultGlobMaxResults,
		GrepMaxMatches:           DefaultGrepMaxMatches,
		GrepMaxLineBytes:         DefaultGrepMaxLineBytes,
		SampleOverCapGlobResults: true,
		TimeoutMs:                DefaultTimeoutMs,
		MaxFilesVisited:          DefaultMaxFilesVisited,
		Spill:                    true,
		SpillMaxBytes:            DefaultSpillMaxBytes,
		SpillQuotaBytes:          DefaultSpillQuotaBytes,
		ResultBudget:             DefaultResultBudget,
		ResultBudgetByClient:     filetool.KnownBudgets[confint.Int](),
	}
}

// Validate checks, in declaration order, that every count and limit is a positive integer, that
// the quota holds at least one spill file, and the budgets.
func (c *Config) Validate() error {
	for _, f := range []struct {
		name string
		v    confint.Int
	}{
		{"globMaxResults", c.GlobMaxResults},
		{"grepMaxMatches", c.GrepMaxMatches},
		{"grepMaxLineBytes", c.GrepMaxLineBytes},
		{"timeoutMs", c.TimeoutMs},
		{"maxFilesVisited", c.MaxFilesVisited},
	} {
		if f.v < 1 {
			return fmt.Errorf("tool-fs-search: %s must be a positive integer", f.name)
		}
	}
	switch {
	case c.SpillMaxBytes < 1:
		return errors.New("tool-fs-search: spillMaxBytes must be a positive integer")
	case c.SpillQuotaBytes < 1:
		return errors.New("tool-fs-search: spillQuotaBytes must be a positive integer")
	case c.SpillQuotaBytes < c.SpillMaxBytes:
		return errors.New("tool-fs-search: spillQuotaBytes must be at least spillMaxBytes")
	}
	_, err := filetool.NewBudget(ID, c.ResultBudget, c.ResultBudgetByClient)
	return err
}

// maxCount (2^53) saturates the counts, so that arithmetic on them cannot overflow.
const maxCount = 1 << 53

func toInt(v confint.Int) int { return int(min(v, maxCount)) }

// caps are the resolved settings.
type caps struct {
	globMax, grepMax, lineBytes, maxVisited int
	sample, includeIgnored, spill           bool
	timeout                                 time.Duration
	spillLimits                             spill.Limits
	budget                                  filetool.Budget
}

func (c Config) caps() caps {
	timeout := time.Duration(math.MaxInt64)
	if c.TimeoutMs < math.MaxInt64/confint.Int(time.Millisecond) {
		timeout = time.Duration(c.TimeoutMs) * time.Millisecond
	}
	table, _ := filetool.NewBudget(ID, c.ResultBudget, c.ResultBudgetByClient) // checked by Validate
	return caps{
		spillLimits: spill.Limits{MaxFileBytes: int64(c.SpillMaxBytes), QuotaBytes: int64(c.SpillQuotaBytes)},
		budget:      table,
		globMax:     toInt(c.GlobMaxResults), grepMax: toInt(c.GrepMaxMatches),
		lineBytes: toInt(c.GrepMaxLineBytes), maxVisited: toInt(c.MaxFilesVisited),
		sample: c.SampleOverCapGlobResults, includeIgnored: c.IncludeIgnored, spill: c.Spill,
		timeout: timeout,
	}
}
