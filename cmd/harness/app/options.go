package app

import (
	"fmt"
	"io"
	"os"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel/loader"
)

// Option customizes a host built on Main.
type Option func(*options)

type options struct {
	name     string
	version  string
	modules  []fx.Option
	profiles map[string][]byte
	appended []loader.Entry
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	getwd    func() (string, error)
}

func defaultOptions() *options {
	return &options{
		name:     "harness",
		version:  buildVersion(),
		profiles: embeddedProfiles(),
		stdin:    os.Stdin,
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		getwd:    os.Getwd,
	}
}

// WithModules adds plugins to the host's catalog, next to the stock plugins: each is a plugin
// package's fx module (its exported Module, which contributes its kernel.Module with
// kernelfx.Plugin), the same way the stock plugins are included. A composition names them by
// module id. A duplicate id fails at start.
func WithModules(mods ...fx.Option) Option {
	return func(o *options) { o.modules = append(o.modules, mods...) }
}

// WithProfile adds (or replaces) an embedded composition selectable with --profile name. The
// profile named "default" is the one used without --profile and --config.
func WithProfile(name string, composition []byte) Option {
	return func(o *options) { o.profiles[name] = composition }
}

// WithEntries appends entries to every embedded profile (not to a --config file), so a custom host
// can ship the stock composition plus its own plugins.
func WithEntries(entries ...loader.Entry) Option {
	return func(o *options) { o.appended = append(o.appended, entries...) }
}

// WithName sets the program name used in usage and log messages (default "harness").
func WithName(name string) Option { return func(o *options) { o.name = name } }

// WithVersion sets the version reported to MCP clients (default: the cordon module's version as the
// build recorded it, or "dev").
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithIO replaces the process's standard streams (for tests and embedding).
func WithIO(stdin io.Reader, stdout, stderr io.Writer) Option {
	return func(o *options) { o.stdin, o.stdout, o.stderr = stdin, stdout, stderr }
}

// Entry builds a composition entry for name whose config is the YAML encoding of config (a struct
// with yaml tags, a map, or nil for the module's defaults).
func Entry(name string, config any) (e loader.Entry, err error) {
	e = loader.Entry{Name: name}
	if config == nil {
		return e, nil
	}
	defer func() { // yaml.v3 panics on values it cannot represent (funcs, channels)
		if p := recover(); p != nil {
			err = fmt.Errorf("entry %q: encode config: %v", name, p)
		}
	}()
	if err := e.Config.Encode(config); err != nil {
		return e, fmt.Errorf("entry %q: encode config: %w", name, err)
	}
	return e, nil
}

// MustEntry is Entry for static configs; it panics on an encoding error.
func MustEntry(name string, config any) loader.Entry {
	e, err := Entry(name, config)
	if err != nil {
		panic(err)
	}
	return e
}
