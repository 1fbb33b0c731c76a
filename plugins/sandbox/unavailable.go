package sandbox

// CodeUnavailable is the code of an *UnavailableError (SANDBOX_UNAVAILABLE).
const CodeUnavailable = "SANDBOX_UNAVAILABLE"

// UnavailableErrorName is the Name of every *UnavailableError.
const UnavailableErrorName = "SandboxUnavailableError"

// UnavailableError is the fail-closed refusal of a process-sandbox provider that cannot confine a
// command in a requested mode on this host (docs/sandbox.md "Modes and the policy"). It reports
// {name, code} to the tool runtime through Name and Code.
type UnavailableError struct {
	// Mode is the refused mode.
	Mode Mode
	// Detail is the runner's own failure, discovered at execution time; "" when none.
	Detail string
}

// NewUnavailableError returns the refusal of mode, with the runner failure detail ("" = none).
func NewUnavailableError(mode Mode, detail string) *UnavailableError {
	return &UnavailableError{Mode: mode, Detail: detail}
}

// Error returns the verbatim message, with " Runner failure: <detail>" when a detail is known.
func (e *UnavailableError) Error() string {
	msg := `sandbox mode "` + string(e.Mode) + `" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. ` +
		`Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access.`
	if e.Detail != "" {
		msg += " Runner failure: " + e.Detail
	}
	return msg
}

// Code returns CodeUnavailable.
func (e *UnavailableError) Code() string { return CodeUnavailable }

// Name returns UnavailableErrorName.
func (e *UnavailableError) Name() string { return UnavailableErrorName }

// Is reports whether target is an *UnavailableError (any mode): errors.Is(err,
// &UnavailableError{}) matches every refusal.
func (e *UnavailableError) Is(target error) bool {
	_, ok := target.(*UnavailableError)
	return ok
}

// ConfinedMode reports whether m is a mode a process-sandbox provider accepts: read-only or
// workspace-write (a danger-full-access consumer never calls the provider).
func ConfinedMode(m Mode) bool {
	return m == ReadOnly || m == WorkspaceWrite
}
