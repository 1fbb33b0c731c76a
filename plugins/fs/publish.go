package fs

import (
	"context"
	"io"

	"github.com/cordon-dev/cordon/kernel"
)

// PublishEvent ("fs/publish") reports each mutation a provider publishes (write, edit, restore),
// twice, under the target's lock and on the mutation's ctx: PublishBefore once every check has
// passed and just before publication (Prior is the file as it still is, After the bytes about to
// replace it), then PublishDone with the version after, or PublishFailed when publication failed
// and the file is as it was. No other mutation through the provider comes between the two. The
// provider emits it contained (a listener's error is logged and changes nothing) and only while a
// listener is live. Mode: emit (docs/history.md "The seam").
var PublishEvent = kernel.NewEvent[PublishArgs]("fs/publish")

// PublishPhase is the phase a PublishEvent reports.
type PublishPhase string

// The phases of a published mutation.
const (
	PublishBefore PublishPhase = "before"
	PublishDone   PublishPhase = "done"
	PublishFailed PublishPhase = "failed"
)

// VerbRestore is the Verb of a PublishArgs reporting a Restorer.Restore.
const VerbRestore = "restore"

// PublishArgs is the payload of PublishEvent.
type PublishArgs struct {
	Phase  PublishPhase
	Target Target
	// Verb is VerbWrite, VerbEdit or VerbRestore.
	Verb string
	// Prior is the file before the mutation; nil when it did not exist.
	Prior *PriorFile
	// After is the bytes the mutation publishes (a BOM first when AfterBOM); Removed says it
	// removes the file instead.
	After    string
	AfterBOM bool
	Removed  bool
	// Version is the version after the mutation (PublishDone; "" when it removed the file).
	Version Version
	// MadeDirs, on the PublishBefore of a creation, are the directories the mutation creates (or
	// created) for the new file: its parents that did not exist before it, innermost first, as
	// keys. A set's new files name every parent the set made for them.
	MadeDirs []string
}

// PriorFile is a file as it was before a published mutation.
type PriorFile struct {
	Version Version
	// Mode is the permission bits with setuid, setgid and sticky, as an os.FileMode.
	Mode uint32
	Size int64
	// Content reads the prior bytes (Size of them) while the PublishBefore event is delivered;
	// nil when the provider could not open them.
	Content io.ReaderAt
	// Bytes is the same content when the provider already holds it in memory (an edit read it
	// whole), so that a listener need not read or copy it again; nil otherwise. Read only, and
	// never written again by the provider: a listener may keep it.
	Bytes []byte
}

// Restorer is an optional FileSystem capability: the guarded restoration of a file's earlier
// bytes, or its removal, under the target's lock and the same checks as WriteText. A sandboxing
// provider confines it as it confines WriteText. It reports PublishEvent with VerbRestore.
type Restorer interface {
	Restore(ctx context.Context, t Target, r Restoration) (Version, error)
}

// DirPruner is an optional FileSystem capability: once an undo removed a file a creation made,
// the removal of the directories that creation made for it (PublishArgs.MadeDirs), each only
// while it is empty, innermost first, stopping at the first that stays. Only t's strict
// ancestors are removed, no path through a symlink is followed, and a confining provider removes
// nothing its fence would not let t's restoration touch. It returns the directories removed.
type DirPruner interface {
	PruneDirs(ctx context.Context, t Target, dirs []string) []string
}

// Restoration is what Restore puts back.
type Restoration struct {
	// Content is written byte for byte (no BOM kept or added, nothing normalized), unless Remove.
	Content []byte
	// Remove removes the file instead (a missing file stays missing).
	Remove bool
	// Mode is given to a file Restore creates (0: what creation gives it); a replaced file keeps
	// its metadata as under WriteText.
	Mode uint32
	// Expect is the version the file must have ("" = it must be absent), unless Force.
	Expect Version
	// Force skips the version check.
	Force bool
}
