package auditlog

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ID is the catalog name of the plugin.
const ID = "audit-log"

// Defaults of Config.
const (
	DefaultMaxBytes    = 10 << 20
	DefaultMaxFiles    = 3
	DefaultMaxArgBytes = 4096
)

// Config is the plugin configuration (see the package documentation).
type Config struct {
	Path        string `yaml:"path"`
	MaxBytes    int64  `yaml:"maxBytes"`
	MaxFiles    int    `yaml:"maxFiles"`
	MaxArgBytes int    `yaml:"maxArgBytes"`
}

// Defaults fills the default values before the YAML is decoded over them.
func (c *Config) Defaults() {
	c.Path = defaultPath()
	c.MaxBytes = DefaultMaxBytes
	c.MaxFiles = DefaultMaxFiles
	c.MaxArgBytes = DefaultMaxArgBytes
}

// Validate checks the decoded configuration.
func (c Config) Validate() error {
	switch {
	case c.Path == "":
		return errors.New("audit-log: path must be a non-empty string")
	case c.MaxBytes < 1:
		return errors.New("audit-log: maxBytes must be a positive integer")
	case c.MaxFiles < 1:
		return errors.New("audit-log: maxFiles must be a positive integer")
	case c.MaxArgBytes < 0:
		return errors.New("audit-log: maxArgBytes must not be negative")
	}
	return nil
}

func defaultPath() string {
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" {
		if home, err := os.UserHomeDir(); err == nil {
			state = filepath.Join(home, ".local", "state")
		} else {
			state = os.TempDir()
		}
	}
	return filepath.Join(state, "cordon", "audit.jsonl")
}

// Plugin is the "audit-log" module.
var Plugin = kernel.Define[Config](ID, apply)

// Module is how a host includes the plugin: the fx module that contributes Plugin to the kernel's
// catalog (app.WithModules(auditlog.Module) in a custom harness, or directly in a host's fx app).
// A composition then names it "audit-log".
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// Record is one line of the audit log.
type Record struct {
	Time    time.Time       `json:"time"`
	CallID  string          `json:"callId"`
	Tool    string          `json:"tool"`
	Session *string         `json:"session"`
	IsError bool            `json:"isError"`
	Code    *string         `json:"code"`
	Args    json.RawMessage `json:"args"`
}

// snippet: README.md auditlog-apply

func apply(kc *kernel.Context, cfg Config) error {
	w, err := openRotating(cfg.Path, cfg.MaxBytes, cfg.MaxFiles)
	if err != nil {
		return err
	}
	// Effects are undone in reverse order when the plugin is disposed.
	if err := kc.OnDispose(func(context.Context) error { return w.Close() }); err != nil {
		_ = w.Close()
		return err
	}
	log := kc.Logger()
	_, err = tools.ResultEvent.On(kc, func(_ context.Context, p tools.ResultArgs) error {
		line, err := json.Marshal(record(p, cfg.MaxArgBytes))
		if err != nil {
			return err
		}
		if err := w.WriteLine(line); err != nil {
			log.Warn("audit-log: write failed: " + err.Error())
			return err
		}
		return nil
	}, kernel.Async(), kernel.Tag(tools.ValueBlind)) // never delays a call; drained before the kernel closes; reads no value
	return err
}

// end snippet

// record builds the audit line of one result.
func record(p tools.ResultArgs, maxArgBytes int) Record {
	res := p.Result()
	r := Record{Time: time.Now().UTC(), IsError: res.IsError, Args: json.RawMessage("null")}
	if e := p.Exec; e != nil {
		r.CallID, r.Tool = e.CallID, e.Name
		if e.Session != nil {
			id := e.Session.ID()
			r.Session = &id
		}
		if len(e.Args) > 0 {
			r.Args = e.Args
		}
		if len(e.Args) > maxArgBytes {
			r.Args, _ = json.Marshal(map[string]any{"truncated": true, "bytes": len(e.Args)})
		}
	}
	if code := res.Code(); code != "" {
		r.Code = &code
	}
	return r
}
