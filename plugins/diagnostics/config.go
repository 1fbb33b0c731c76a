package diagnostics

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// The defaults of the configuration (docs/diagnostics.md "Configuration").
const (
	DefaultWait                  = 5 * time.Second
	DefaultCheckTimeout          = 2 * time.Minute
	DefaultRestartBackoff        = 2 * time.Second
	DefaultMaxServers            = 4
	DefaultMaxFiles              = 500
	DefaultMaxDiagnosticsPerFile = 200
	DefaultMaxFileBytes          = 4 << 20
	DefaultMaxMessageBytes       = 16 << 20
	DefaultMaxRootFiles          = 100000
)

// Config is the configuration of lsp-diagnostics.
type Config struct {
	// Wait bounds how long a tool call waits for the diagnostics of its change; past it the result
	// says the check is still running and the next call on the file carries it.
	Wait confint.Duration `yaml:"wait"`
	// CheckTimeout bounds a whole check, a server's start included; a check still running then is
	// given up (the late result never comes).
	CheckTimeout confint.Duration `yaml:"checkTimeout"`
	// RestartBackoff is the wait before a crashed or failed server is started again; it doubles
	// with each failure in a row, up to 64 times itself.
	RestartBackoff confint.Duration `yaml:"restartBackoff"`
	// MaxServers bounds the servers running at once (one per language and root).
	MaxServers confint.Int `yaml:"maxServers"`
	// MaxFiles bounds the files whose diagnostics are kept; the least recently changed go first.
	MaxFiles confint.Int `yaml:"maxFiles"`
	// MaxDiagnosticsPerFile bounds the diagnostics kept of one file.
	MaxDiagnosticsPerFile confint.Int `yaml:"maxDiagnosticsPerFile"`
	// MaxFileBytes: a larger file is not checked.
	MaxFileBytes confint.Int `yaml:"maxFileBytes"`
	// MaxMessageBytes bounds one message from a server; a larger one is dropped.
	MaxMessageBytes confint.Int `yaml:"maxMessageBytes"`
	// MaxRootFiles: no server is started for a root holding more files than this (counted once,
	// before the first start, without .git and node_modules).
	MaxRootFiles confint.Int `yaml:"maxRootFiles"`
	// Servers are merged over the built-in servers by language name.
	Servers map[string]ServerConfig `yaml:"servers"`
	// ResultBudget and ResultBudgetByClient bound the whole text of a result, as tool-fs's do.
	ResultBudget         confint.Int            `yaml:"resultBudget"`
	ResultBudgetByClient map[string]confint.Int `yaml:"resultBudgetByClient"`
}

// ServerConfig says how to run the server of one language. A field left out keeps the built-in
// value of a language Cordon knows.
type ServerConfig struct {
	// Commands are the command lines to try, in order: the first whose program is found (an
	// absolute path, or a name on PATH) runs.
	Commands [][]string `yaml:"commands"`
	// Extensions maps each file extension the server checks (".go") to its LSP language id.
	Extensions map[string]string `yaml:"extensions"`
	// RootMarkers are the file names that mark a root; the nearest directory holding one, from the
	// file up to the workspace, is the server's root. A file with none is not checked.
	RootMarkers []string `yaml:"rootMarkers"`
	// Settle is how long a pushed result waits for a later push of the same file (for servers that
	// publish in parts and name no version).
	Settle *confint.Duration `yaml:"settle"`
	// Versioned says the server names the version of every push for an open file, so a push that
	// names none (a report on the file as on disk) is not taken for the file's check.
	Versioned *bool `yaml:"versioned"`
	// InitializationOptions are sent with initialize.
	InitializationOptions map[string]any `yaml:"initializationOptions"`
	// Disabled turns the language off.
	Disabled bool `yaml:"disabled"`
}

// Defaults fills every field with its default (the kernel calls it before decoding).
func (c *Config) Defaults() {
	*c = Config{
		Wait: confint.Duration(DefaultWait), CheckTimeout: confint.Duration(DefaultCheckTimeout),
		RestartBackoff: confint.Duration(DefaultRestartBackoff), MaxServers: DefaultMaxServers,
		MaxFiles: DefaultMaxFiles, MaxDiagnosticsPerFile: DefaultMaxDiagnosticsPerFile,
		MaxFileBytes: DefaultMaxFileBytes, MaxMessageBytes: DefaultMaxMessageBytes, MaxRootFiles: DefaultMaxRootFiles,
		ResultBudget: filetool.DefaultBudget, ResultBudgetByClient: filetool.KnownBudgets[confint.Int](),
	}
}

// DefaultConfig returns the configuration with every default applied.
func DefaultConfig() Config {
	var c Config
	c.Defaults()
	return c
}

// Validate reports the first invalid key.
func (c *Config) Validate() error {
	for _, d := range []struct {
		name string
		v    confint.Duration
	}{{"wait", c.Wait}, {"checkTimeout", c.CheckTimeout}, {"restartBackoff", c.RestartBackoff}} {
		if d.v <= 0 {
			return fmt.Errorf("%s: %s must be a positive duration", ID, d.name)
		}
	}
	for _, n := range []struct {
		name string
		v    confint.Int
	}{{"maxServers", c.MaxServers}, {"maxFiles", c.MaxFiles}, {"maxDiagnosticsPerFile", c.MaxDiagnosticsPerFile},
		{"maxFileBytes", c.MaxFileBytes}, {"maxMessageBytes", c.MaxMessageBytes}, {"maxRootFiles", c.MaxRootFiles}} {
		if n.v < 1 {
			return fmt.Errorf("%s: %s must be a positive integer", ID, n.name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Servers)) {
		s := c.Servers[name]
		for _, cmd := range s.Commands {
			if len(cmd) == 0 || cmd[0] == "" {
				return fmt.Errorf("%s: servers.%s.commands: a command line must name a program", ID, name)
			}
		}
		for ext, id := range s.Extensions {
			if !strings.HasPrefix(ext, ".") || len(ext) < 2 || id == "" {
				return fmt.Errorf("%s: servers.%s.extensions: %q: an extension starts with a dot and names a language id", ID, name, ext)
			}
		}
		if s.Settle != nil && *s.Settle < 0 {
			return fmt.Errorf("%s: servers.%s.settle must not be negative", ID, name)
		}
		if _, known := builtin()[name]; !known && !s.Disabled && (len(s.Commands) == 0 || len(s.Extensions) == 0 || len(s.RootMarkers) == 0) {
			return fmt.Errorf("%s: servers.%s: a language Cordon does not know needs commands, extensions and rootMarkers", ID, name)
		}
	}
	_, err := filetool.NewBudget(ID, c.ResultBudget, c.ResultBudgetByClient)
	return err
}

// spec is one language's server, resolved.
type spec struct {
	name        string
	commands    [][]string
	extensions  map[string]string
	rootMarkers []string
	settle      time.Duration
	versioned   bool
	initOptions map[string]any
	configured  bool // named in the configuration (a missing program is then worth a line)
}

// builtin returns the servers Cordon knows (a new map each call).
func builtin() map[string]spec {
	return map[string]spec{
		"go": {name: "go", commands: [][]string{{"gopls"}}, extensions: map[string]string{".go": "go"},
			rootMarkers: []string{"go.work", "go.mod"},
			// gopls first pushes, with no version, what it loaded from disk: the text after the change
			versioned: true},
		"typescript": {name: "typescript",
			commands: [][]string{{"typescript-language-server", "--stdio"}, {"tsc", "--lsp", "--stdio"}},
			extensions: map[string]string{".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
				".tsx": "typescriptreact", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
				".jsx": "javascriptreact"},
			rootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"},
			// typescript-language-server names no version and publishes a file in parts
			settle: 300 * time.Millisecond},
		"python": {name: "python", commands: [][]string{{"pyright-langserver", "--stdio"}},
			extensions:  map[string]string{".py": "python", ".pyi": "python"},
			rootMarkers: []string{"pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg"}},
		"c": {name: "c", commands: [][]string{{"clangd"}},
			extensions: map[string]string{".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp",
				".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp"},
			rootMarkers: []string{"compile_commands.json", "compile_flags.txt"}},
	}
}

// specs merges the configured servers over the built-in ones and returns the servers by
// extension.
func (c *Config) specs() map[string]*spec {
	all := builtin()
	for name, s := range c.Servers {
		b := all[name]
		b.name, b.configured = name, true
		if s.Disabled {
			delete(all, name)
			continue
		}
		if s.Commands != nil {
			b.commands = s.Commands
		}
		if s.Extensions != nil {
			b.extensions = s.Extensions
		}
		if s.RootMarkers != nil {
			b.rootMarkers = s.RootMarkers
		}
		if s.Settle != nil {
			b.settle = time.Duration(*s.Settle)
		}
		if s.Versioned != nil {
			b.versioned = *s.Versioned
		}
		if s.InitializationOptions != nil {
			b.initOptions = s.InitializationOptions
		}
		all[name] = b
	}
	byExt := map[string]*spec{}
	for _, name := range slices.Sorted(maps.Keys(all)) {
		s := all[name]
		for ext := range s.extensions {
			byExt[ext] = &s
		}
	}
	return byExt
}
