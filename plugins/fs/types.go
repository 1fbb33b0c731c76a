package fs

// TargetKey is the opaque identity of a file inside one provider. The same file
// reached through different spellings (symlinks, "..") yields the same key.
// Consumers must never parse it or assume it is a local path.
type TargetKey string

// Version is the opaque freshness token a guarded mutation compares.
// Consumers must not interpret it; the empty Version means "none".
type Version string

// Target is a resolved path. It is produced only by FileSystem.Resolve and taken
// by every other target-shaped primitive. DisplayPath is the only model- or
// UI-facing field: it is the lexically normalized absolute path.
type Target struct {
	Key         TargetKey
	DisplayPath string
}

// FileType is the kind of a filesystem entry.
type FileType string

// The file types. TypeSymlink only appears in PathInfo (Lstat).
const (
	TypeFile      FileType = "file"
	TypeDirectory FileType = "directory"
	TypeOther     FileType = "other"
	TypeSymlink   FileType = "symlink"
)

// Info is the result of Stat (symlinks followed). Type is never TypeSymlink.
// Size is meaningful only when HasSize is true (the local provider always sets it).
type Info struct {
	Version Version
	Type    FileType
	Size    int64
	HasSize bool
}

// PathInfo is the result of Lstat: the path entry itself, without following a
// final symlink component. Type may be TypeSymlink.
type PathInfo struct {
	Version Version
	Type    FileType
	Size    int64
	HasSize bool
}

// DirEntry is one direct child returned by ListDir. Name is the basename.
// Version is empty when no cheap metadata was available (e.g. a broken symlink,
// reported as TypeOther). Size is set (HasSize) only for regular files.
type DirEntry struct {
	Name    string
	Type    FileType
	Target  Target
	Version Version
	Size    int64
	HasSize bool
}

// ObservationKind discriminates an Observation.
type ObservationKind string

// The observation kinds.
const (
	ObservedPresent ObservationKind = "present"
	ObservedAbsent  ObservationKind = "absent"
)

// Observation records what a caller saw of a target: present at a Version, or
// absent. Present authorizes a guarded replacement at that version; absent
// authorizes only a guarded create, never an edit.
type Observation struct {
	Kind    ObservationKind
	Version Version // set only when Kind is ObservedPresent
	Seen    *Seen   // what was seen of the text at Version, when the observer recorded it
}

// Present returns the observation "present at v".
func Present(v Version) Observation { return Observation{Kind: ObservedPresent, Version: v} }

// Absent returns the observation "absent".
func Absent() Observation { return Observation{Kind: ObservedAbsent} }

// IntentKind discriminates a WriteIntent.
type IntentKind string

// The write intent kinds. "No guard" is a nil *WriteIntent, never a third kind.
const (
	IntentCreateIfAbsent   IntentKind = "createIfAbsent"
	IntentReplaceIfVersion IntentKind = "replaceIfVersion"
)

// WriteIntent is the optional precondition of WriteText. A nil *WriteIntent means
// an unconditional create-or-overwrite (still atomic, still under the
// per-target lock).
type WriteIntent struct {
	Kind    IntentKind
	Version Version // set only when Kind is IntentReplaceIfVersion
	Recheck Recheck // with ReplaceIfVersion: decides a version mismatch (nil: stale)
	// Seen is what the caller saw of the text at Version, when the decider recorded it: a tool may
	// refuse a replacement that would drop lines never seen (docs/tool-fs.md).
	Seen *Seen
}

// CreateIfAbsent returns the intent "create, never replace".
func CreateIfAbsent() *WriteIntent { return &WriteIntent{Kind: IntentCreateIfAbsent} }

// ReplaceIfVersion returns the intent "replace only if the file is still at v".
func ReplaceIfVersion(v Version) *WriteIntent {
	return &WriteIntent{Kind: IntentReplaceIfVersion, Version: v}
}

// EditGuard is the optional precondition of EditText: the version the caller
// last observed. A nil *EditGuard means an unconditional edit of the current
// content.
type EditGuard struct {
	Version Version
	Recheck Recheck // decides a version mismatch (nil: stale)
}

// EditRequest is a literal edit. OldString must be non-empty; an empty NewString
// deletes the match. ReplaceAll replaces every non-overlapping occurrence.
type EditRequest struct {
	OldString  string
	NewString  string
	ReplaceAll bool
}

// Operation says whether WriteText created or updated the file.
type Operation string

// The write operations.
const (
	OperationCreate Operation = "create"
	OperationUpdate Operation = "update"
)

// ReadOutcome is the result of ReadText: the file's text and the charset it was stored in, decided
// once, by the read that decoded it.
type ReadOutcome struct {
	// Text is the file's text in UTF-8, a leading byte order mark consumed.
	Text string
	// Charset is the WHATWG name of the charset Text was decoded from when it is not UTF-8
	// ("shift_jis", "utf-16le"); "" for UTF-8, and always for a provider that stores only UTF-8.
	Charset string
}

// WriteOutcome is the result of WriteText. Version is the version after the
// write. Before is the prior content LF-normalized (the diff basis), or nil when
// the file did not exist or the backend declined a basis. After is the new
// content LF-normalized (CRLF -> LF); the bytes on disk are not normalized.
type WriteOutcome struct {
	Operation Operation
	Version   Version
	Before    *string
	After     string
}

// EditOutcome is the result of EditText: the version after the edit and the
// LF-normalized in-memory content before and after the replacement.
type EditOutcome struct {
	Version Version
	Before  string
	After   string
	// Text is the new file text after any BOM, line breaks as written, when the provider says
	// (HasText); an observer may record it as seen.
	Text    string
	HasText bool
	// Elsewhere are the lines, of the file before the edit, that a Recheck found changed since
	// they were seen (docs/tool-fs.md "edit").
	Elsewhere []LineRange
}

// ResolveOptions are the options of Resolve. Cwd, when non-empty, is the base
// for relative paths; otherwise the backend default is used.
type ResolveOptions struct {
	Cwd string
}

// LstatOptions are the options of Lstat. Cwd, when non-empty, is the base for a
// relative path.
type LstatOptions struct {
	Cwd string
}

// IntentArgs is the payload of WriteIntentEvent and EditIntentEvent. Actor is
// the caller's execution context, opaque to the seam (the tool passes its
// execution context; a policy may derive an owner from it).
type IntentArgs struct {
	Target Target
	Actor  any
}

// ObservedArgs is the payload of ObservedEvent.
type ObservedArgs struct {
	Target      Target
	Observation Observation
	Actor       any
}
