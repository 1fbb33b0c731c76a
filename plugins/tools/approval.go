package tools

import (
	"context"
)

// ApprovalDetails is what one call would do if the user allowed it, for the
// approval prompt a host renders. Every field may carry model-chosen text: a
// host must bound and neutralise all of them before showing them.
type ApprovalDetails struct {
	// Path is the absolute path the call acts on, lexically normalised.
	Path string
	// ResolvedPath is where Path leads on the file system (symlinks
	// followed), when that differs from Path.
	ResolvedPath string
	// Mode is the access asked for (a sandbox mode); CurrentMode is the one
	// the call has without the approval.
	Mode, CurrentMode string
	// Justification is the model's own explanation.
	Justification string
	// Previews are the texts the call would write, in order (write: the
	// content; edit: the old and the new string).
	Previews []ApprovalPreview
	// Files are every file a call that changes several would touch
	// (apply_patch), in the call's order: the prompt lists them all, the
	// marked ones first, and spends its preview budget across them.
	Files []ApprovalFile
}

// The operations of an ApprovalFile.
const (
	FileAdd    = "add"
	FileUpdate = "update"
	FileDelete = "delete"
	FileMove   = "move"
)

// The marks of an ApprovalFile: why the person should look at it first.
const (
	MarkProtected  = "protected"  // a protected path of a writable root (such as .git)
	MarkOutside    = "outside"    // outside every writable root of the standing policy
	MarkUnverified = "unverified" // it could not be checked
)

// ApprovalFile is one file of ApprovalDetails.Files.
type ApprovalFile struct {
	// Op is FileAdd, FileUpdate, FileDelete or FileMove.
	Op string
	// Path is the file (a move's source), absolute once the asker resolved
	// it; ResolvedPath is where it leads when a symlink takes it elsewhere.
	Path, ResolvedPath string
	// MoveTo is a move's destination, absolute once resolved.
	MoveTo string
	// Mark is MarkProtected, MarkOutside, MarkUnverified or "" (inside a
	// writable root), the worse of source and destination for a move.
	Mark string
	// Preview is what the call would write to it (its lines of the patch).
	Preview string
}

// ApprovalPreview is one text of ApprovalDetails: its label (such as
// "Content") and the whole text, of which the prompt shows a bounded excerpt.
type ApprovalPreview struct {
	Label string
	Text  string
}

type approvalChannelKey struct{}

// WithApprovalChannel returns ctx recording whether the call it is passed to has a channel to a
// person who can answer an approval prompt (MCP elicitation, the 2026-07-28 input request,
// `harness run --approve`). A host sets it; a tool that would offer an escalation reads it with
// ApprovalChannelOf and, without a channel, says instead how the user widens the access
// (docs/sandbox.md "Denials").
func WithApprovalChannel(ctx context.Context, has bool) context.Context {
	return context.WithValue(ctx, approvalChannelKey{}, has)
}

// ApprovalChannelOf returns what WithApprovalChannel recorded on ctx; known is false when no host
// said (an escalation is then offered, as before).
func ApprovalChannelOf(ctx context.Context) (has, known bool) {
	has, known = ctx.Value(approvalChannelKey{}).(bool)
	return has, known
}
