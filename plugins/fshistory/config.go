package fshistory

import (
	"fmt"
	"os"
	"time"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// The defaults of the configuration.
const (
	DefaultMaxBytes        = 256 << 20
	DefaultMaxAge          = 7 * 24 * time.Hour
	DefaultMaxContentBytes = 16 << 20
)

// Config is the configuration of fs-history (docs/history.md "Configuration").
type Config struct {
	// Dir is the store's directory; "" means history.DefaultDir.
	Dir string `yaml:"dir"`
	// MaxBytes bounds the prior content kept; the oldest changes go first.
	MaxBytes confint.Int `yaml:"maxBytes"`
	// MaxAge drops changes older than this (a Go duration: "168h").
	MaxAge Duration `yaml:"maxAge"`
	// MaxContentBytes is the largest prior content kept; a larger file is recorded by its digest
	// only (not undoable).
	MaxContentBytes confint.Int `yaml:"maxContentBytes"`
	// LockTimeout bounds the wait for another process using the store.
	LockTimeout Duration `yaml:"lockTimeout"`
}

// Defaults fills every field with its default (the kernel calls it before decoding).
func (c *Config) Defaults() {
	*c = Config{MaxBytes: DefaultMaxBytes, MaxAge: Duration(DefaultMaxAge), MaxContentBytes: DefaultMaxContentBytes,
		LockTimeout: Duration(history.DefaultLockTimeout)}
}

// Validate reports the first invalid key.
func (c *Config) Validate() error {
	switch {
	case c.MaxBytes <= 0:
		return fmt.Errorf("%s: maxBytes must be a positive integer", ID)
	case c.MaxContentBytes <= 0:
		return fmt.Errorf("%s: maxContentBytes must be a positive integer", ID)
	case c.MaxAge <= 0:
		return fmt.Errorf("%s: maxAge must be a positive duration", ID)
	case c.LockTimeout <= 0:
		return fmt.Errorf("%s: lockTimeout must be a positive duration", ID)
	}
	return nil
}

func (c *Config) dir() (string, error) {
	if c.Dir != "" {
		return c.Dir, nil
	}
	d, err := history.DefaultDir(os.LookupEnv)
	if err != nil {
		return "", fmt.Errorf("%s: %w", ID, err)
	}
	return d, nil
}

func (c *Config) limits() history.Limits {
	return history.Limits{MaxBytes: int64(c.MaxBytes), MaxAge: time.Duration(c.MaxAge), MaxContentBytes: int64(c.MaxContentBytes)}
}

// Duration is a time.Duration written as a Go duration string ("168h", "90m").
type Duration = confint.Duration
