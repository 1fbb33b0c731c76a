// Package fs is the fs seam: the FileSystem interface every filesystem
// provider implements, its vocabulary types (Target, Version, Info, DirEntry,
// Observation, WriteIntent, EditGuard, outcomes), the *Error type with its
// closed set of codes and exact message constructors, and the typed kernel keys
// of the service and of the fs/* events.
//
// The package imports only the kernel. Providers (fs-local, fs-sandbox),
// policies (fs-observation-policy) and consumers (tool-fs) import it and never
// each other.
//
// Kernel keys (declared once, here):
//
//   - Service ("fs"): the FileSystem service; a second live provider fails.
//   - WriteIntentEvent ("fs/write-intent"): single-slot waterfall deciding the
//     *WriteIntent of the next WriteText. The first decider owns the decision;
//     with no listener the caller's default (nil = unconditional) is used.
//   - EditIntentEvent ("fs/edit-intent"): same shape; the result is an
//     *EditGuard or nil; a decider may fail (e.g. FS_NOT_OBSERVED).
//   - ObservedEvent ("fs/observed"): synchronous emit; listeners are
//     side-effect-only recorders and their errors reach the emitter.
//
// Staleness by content (docs/fs.md "Staleness"): an Observation may carry
// what the observer saw of the text (Seen: windows of whole lines, with a
// digest and, bounded, their bytes); a guard decided from it may carry a
// Recheck, which a provider calls under the target's mutation lock when it
// finds another version than the guard's, and mutates only when it returns
// nil. An error may carry Guidance (lines for the model after its first).
//
// Errors: every provider failure with a code is an *Error. Match codes with
// errors.Is(err, fs.ErrStaleVersion) (any message) or fs.CodeOf / fs.HasCode.
// Message constructors (ReadNotFound, WriteChanged, ...) return the exact
// model-facing text of the specification; "<p>" is always the DisplayPath.
// FromOS codes an OS failure the specification leaves raw (by its errno, with
// the display path and a remedy); OSReason is the path-free text of an OS
// error that fills the specification's "<os error message>" slots.
//
// Cancellation: a cancelled context makes a provider call fail with an *Error
// of code FS_ABORTED and message "<verb> aborted" (Aborted).
package fs
