package tools

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
}

// ApprovalPreview is one text of ApprovalDetails: its label (such as
// "Content") and the whole text, of which the prompt shows a bounded excerpt.
type ApprovalPreview struct {
	Label string
	Text  string
}
