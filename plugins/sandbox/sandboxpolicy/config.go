package sandboxpolicy

import (
	"strings"

	"github.com/cordon-dev/cordon/internal/jstext"
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
}

// Defaults sets the default mode (the kernel calls it before decoding).
func (c *Config) Defaults() { c.Mode = sandbox.ReadOnly }

// Validate refuses a mode outside the vocabulary.
func (c Config) Validate() error {
	if !sandbox.ValidMode(c.Mode) {
		return &UnknownModeError{Mode: c.Mode, config: true}
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
			" or " + names[len(names)-1] + " (got " + jstext.Quote(string(e.Mode)) + ")"
	}
	return "sandbox/mode carries unknown mode " + jstext.Quote(string(e.Mode))
}

// Is matches any *UnknownModeError: errors.Is(err, &UnknownModeError{}).
func (e *UnknownModeError) Is(target error) bool {
	_, ok := target.(*UnknownModeError)
	return ok
}
