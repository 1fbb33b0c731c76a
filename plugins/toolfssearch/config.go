package toolfssearch

import (
	"fmt"
	"math"
	"time"

	"github.com/cordon-dev/cordon/internal/jstext"
)

// The defaults of the configuration.
const (
	DefaultGlobMaxResults   = 100
	DefaultGrepMaxMatches   = 250
	DefaultGrepMaxLineBytes = 2000
	DefaultTimeoutMs        = 30000
	DefaultMaxFilesVisited  = 500000
)

// Config is the configuration of tool-fs-search. The counts are JSON numbers (float64) so that a
// fractional value decodes and is refused with `tool-fs-search: <key> must be a positive integer`
// rather than a decoder error. Go callers start from DefaultConfig: a zero count is invalid.
type Config struct {
	// GlobMaxResults is the number of paths glob shows inline.
	GlobMaxResults float64 `json:"globMaxResults" yaml:"globMaxResults"`
	// GrepMaxMatches is the number of matching lines grep shows inline.
	GrepMaxMatches float64 `json:"grepMaxMatches" yaml:"grepMaxMatches"`
	// GrepMaxLineBytes is the number of bytes kept of each matching line.
	GrepMaxLineBytes float64 `json:"grepMaxLineBytes" yaml:"grepMaxLineBytes"`
	// SampleOverCapGlobResults samples an over-cap glob across top-level entries (else: the head).
	SampleOverCapGlobResults bool `json:"sampleOverCapGlobResults" yaml:"sampleOverCapGlobResults"`
	// TimeoutMs abandons a search after this many milliseconds (SEARCH_ABORTED).
	TimeoutMs float64 `json:"timeoutMs" yaml:"timeoutMs"`
	// MaxFilesVisited stops a walk after this many entries.
	MaxFilesVisited float64 `json:"maxFilesVisited" yaml:"maxFilesVisited"`
	// IncludeIgnored also lists and searches the files ignore rules exclude.
	IncludeIgnored bool `json:"includeIgnored" yaml:"includeIgnored"`
	// Spill saves over-cap results in full to a spill file.
	Spill bool `json:"spill" yaml:"spill"`
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
	}
}

// Validate checks, in declaration order, that every count is a positive integer.
func (c *Config) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"globMaxResults", c.GlobMaxResults},
		{"grepMaxMatches", c.GrepMaxMatches},
		{"grepMaxLineBytes", c.GrepMaxLineBytes},
		{"timeoutMs", c.TimeoutMs},
		{"maxFilesVisited", c.MaxFilesVisited},
	} {
		if !jstext.IsInteger(f.v) || f.v < 1 {
			return fmt.Errorf("tool-fs-search: %s must be a positive integer", f.name)
		}
	}
	return nil
}

// maxCount saturates the counts (2^53, as JSON numbers are exact up to there).
const maxCount = 1 << 53

func toInt(v float64) int {
	if v >= maxCount {
		return maxCount
	}
	return int(v)
}

// caps are the resolved settings.
type caps struct {
	globMax, grepMax, lineBytes, maxVisited int
	sample, includeIgnored, spill           bool
	timeout                                 time.Duration
}

func (c Config) caps() caps {
	timeout := time.Duration(math.MaxInt64)
	if c.TimeoutMs < float64(math.MaxInt64/int64(time.Millisecond)) {
		timeout = time.Duration(c.TimeoutMs) * time.Millisecond
	}
	return caps{
		globMax: toInt(c.GlobMaxResults), grepMax: toInt(c.GrepMaxMatches),
		lineBytes: toInt(c.GrepMaxLineBytes), maxVisited: toInt(c.MaxFilesVisited),
		sample: c.SampleOverCapGlobResults, includeIgnored: c.IncludeIgnored, spill: c.Spill,
		timeout: timeout,
	}
}
