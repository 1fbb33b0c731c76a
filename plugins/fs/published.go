package fs

import (
	"context"
	"io"

	"github.com/cordon-dev/cordon/kernel"
)

// PublishedEvent ("fs/published") reports a mutation a provider published (write, edit, restore),
// with what the file was before it. The provider emits it contained (a listener's error is logged
// and changes nothing) after publication and before it releases the target's lock, so no other
// mutation through the provider can come between; ctx is the mutation's. A provider may skip the
// prior state's bytes when no listener is live (PublishedArgs.Prior.Content nil). Mode: emit
// (docs/history.md "The seam").
var PublishedEvent = kernel.NewEvent[PublishedArgs]("fs/published")

// VerbRestore is the Verb of a PublishedArgs reporting a Restorer.Restore.
const VerbRestore = "restore"

// PublishedArgs is the payload of PublishedEvent.
type PublishedArgs struct {
	Target Target
	// Verb is VerbWrite, VerbEdit or VerbRestore.
	Verb string
	// Prior is the file before the mutation; nil when it did not exist.
	Prior *PriorFile
	// Version is the version after the mutation; "" when the mutation removed the file.
	Version Version
}

// PriorFile is a file as it was before a published mutation.
type PriorFile struct {
	Version Version
	// Mode is the permission bits with setuid, setgid and sticky, as an os.FileMode.
	Mode uint32
	Size int64
	// Content reads the prior bytes (Size of them), valid only while the event is delivered;
	// nil when the provider could not keep them.
	Content io.ReaderAt
}

// Restorer is an optional FileSystem capability: the guarded restoration of a file's earlier
// bytes, or its removal, under the target's lock and the same checks as WriteText. A sandboxing
// provider confines it as it confines WriteText. It reports PublishedEvent with VerbRestore.
type Restorer interface {
	Restore(ctx context.Context, t Target, r Restoration, sandbox *SandboxPolicy) (Version, error)
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
