package sandbox

// Mode is a sandbox mode (docs/sandbox.md "Modes and the policy"): ReadOnly, WorkspaceWrite or
// DangerFullAccess, narrow to wide.
type Mode string

// The sandbox modes.
const (
	ReadOnly         Mode = "read-only"
	WorkspaceWrite   Mode = "workspace-write"
	DangerFullAccess Mode = "danger-full-access"
)

// CallPolicy is the execution policy a confining filesystem enforces on one mutation. It rides
// the call (WithPolicy), never the provider.
type CallPolicy struct {
	Mode          Mode
	WorkspaceRoot string // absolute, canonical
	SessionID     string // optional, opaque
	// Roots are more writable roots beside WorkspaceRoot, ReadOnlyRoots roots that are read but
	// never written (docs/sandbox.md "Roots"); both absolute.
	Roots, ReadOnlyRoots []string
	// ConfineReads confines reads, listings and searches to the readable roots (ReadableRoots),
	// as mutations are confined to the writable ones; false reads everywhere (Codex's modes).
	ConfineReads bool
	// NoTempRoots leaves "/tmp" and $TMPDIR out of the writable roots.
	NoTempRoots bool
}
