package sandboxpolicy

import (
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// Config is the configuration of the sandbox-policy plugin (docs/sandbox.md "Modes and the
// policy"). Unknown keys are errors under the composition's strict decoding.
type Config struct {
	// Mode is the deployment default mode of every session without an override. Default
	// read-only (fail-safe); anything outside the three modes fails the load.
	Mode sandbox.Mode `yaml:"mode"`
	// WorkspaceRoot is the fallback workspace root of agentless calls and of sessions without a
	// cwd. "" (the default) means the process working directory at load. It is stored as the
	// absolute form of its canonical path.
	WorkspaceRoot string `yaml:"workspaceRoot"`
	// Reads is where reads, listings and searches may open files (docs/sandbox.md "Roots"):
	// "anywhere" (the default, Codex's modes; "" means it too) or "roots" (beneath the readable
	// roots only, checked on the directory handles the read uses).
	Reads string `yaml:"reads"`
	// TempRoots makes "/tmp" and $TMPDIR writable roots under workspace-write (nil: true).
	TempRoots *bool `yaml:"tempRoots"`
	// Roots are more read-write roots, ReadOnlyRoots roots that are read but never written.
	// Relative entries are taken from the process working directory at load.
	Roots         []string `yaml:"roots"`
	ReadOnlyRoots []string `yaml:"readOnlyRoots"`
}

// The values of Config.Reads.
const (
	ReadsAnywhere = "anywhere"
	ReadsRoots    = "roots"
)

// Defaults sets the default mode (the kernel calls it before decoding).
func (c *Config) Defaults() { c.Mode = sandbox.ReadOnly }

// Validate refuses a mode outside the vocabulary, a reads value other than "anywhere" or
// "roots", and an empty root.
func (c Config) Validate() error {
	if !sandbox.ValidMode(c.Mode) {
		return &UnknownModeError{Mode: c.Mode, config: true}
	}
	if c.Reads != "" && c.Reads != ReadsAnywhere && c.Reads != ReadsRoots {
		return errors.New(`sandbox-policy: reads must be "anywhere" or "roots" (got ` + texts.Quote(c.Reads) + ")")
	}
	for _, r := range append(append([]string(nil), c.Roots...), c.ReadOnlyRoots...) {
		if strings.TrimSpace(r) == "" {
			return errors.New("sandbox-policy: a root must not be empty")
		}
	}
	return nil
}

// UnknownModeError refuses a mode outside the vocabulary: in the configuration (load error) or
// in a session override (SetMode).
type UnknownModeError struct {
	Mode   sandbox.Mode
	config bool
}

// Error returns, for the configuration,
// `sandbox-policy: mode must be one of "read-only", "workspace-write" or "danger-full-access" (got "<m>")`
// and, for an override, the invariant text `sandbox/mode carries unknown mode "<m>"`
// (JSON-quoted).
func (e *UnknownModeError) Error() string {
	if e.config {
		names := make([]string, len(sandbox.Modes))
		for i, m := range sandbox.Modes {
			names[i] = `"` + string(m) + `"`
		}
		return "sandbox-policy: mode must be one of " + strings.Join(names[:len(names)-1], ", ") +
			" or " + names[len(names)-1] + " (got " + texts.Quote(string(e.Mode)) + ")"
	}
	return "sandbox/mode carries unknown mode " + texts.Quote(string(e.Mode))
}

// Is matches any *UnknownModeError: errors.Is(err, &UnknownModeError{}).
func (e *UnknownModeError) Is(target error) bool {
	_, ok := target.(*UnknownModeError)
	return ok
}
