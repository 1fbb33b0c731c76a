package fs

import (
	"context"
	"iter"
)

// FileSystem is the fs seam: twelve primitives (docs/fs.md "The provider
// contract"). Every primitive that may do I/O takes a context first; a
// cancelled context makes the call fail with an *Error of code FS_ABORTED
// ("<verb> aborted"). Whether a provider confines its mutations, and under
// which policy, is the sandbox seam's business: a confining provider reads the
// per-call policy from the context the caller passes (plugins/sandbox).
type FileSystem interface {
	// Resolve turns a path into a Target. Relative paths resolve against
	// opts.Cwd, else the backend default; absolute paths ignore Cwd. The same
	// file yields the same key. A blank path fails FS_NOT_FOUND.
	Resolve(ctx context.Context, path string, opts ResolveOptions) (Target, error)

	// ProcessPath returns the canonical absolute path a subprocess in the same
	// execution world can open.
	ProcessPath(t Target) string

	// FileURL returns the canonical file: URI of t.
	FileURL(t Target) string

	// Contains reports whether child is parent itself or a descendant of it.
	Contains(parent, child Target) bool

	// Stat returns metadata following symlinks, or (nil, nil) when absent
	// (including "a parent segment is a file").
	Stat(ctx context.Context, t Target) (*Info, error)

	// Lstat probes a path (not a target) without following its final
	// component; (nil, nil) when absent. A blank path fails FS_NOT_FOUND.
	Lstat(ctx context.Context, path string, opts LstatOptions) (*PathInfo, error)

	// ReadText returns the whole regular file as strictly decoded UTF-8 (a
	// leading BOM is consumed; no newline normalization), with the charset it
	// decoded it from. A NUL within the first 8192 bytes fails FS_NOT_TEXT
	// "binary file".
	ReadText(ctx context.Context, t Target) (ReadOutcome, error)

	// StreamText checks the target like ReadText and returns its text as decoded
	// chunks whose concatenation equals ReadText's Text. Chunk boundaries carry
	// no meaning (never inside a UTF-8 sequence). The sequence yields ("", err)
	// once and stops on failure; breaking out of the range releases the file.
	// Each chunk is a fresh string: consumers that retain small pieces of a chunk
	// should strings.Clone them so the chunk itself can be collected.
	StreamText(ctx context.Context, t Target) (iter.Seq2[string, error], error)

	// ReadBytes returns the raw bytes of a regular file, at most maxBytes
	// (inclusive). A larger file fails FS_TOO_LARGE; it never truncates and
	// never reads past maxBytes+1.
	ReadBytes(ctx context.Context, t Target, maxBytes int64) ([]byte, error)

	// ListDir returns the direct children of a directory in stable name order,
	// without reading file contents.
	ListDir(ctx context.Context, t Target) ([]DirEntry, error)

	// WriteText atomically creates or replaces t with content. intent nil means
	// unconditional.
	WriteText(ctx context.Context, t Target, content string, intent *WriteIntent) (WriteOutcome, error)

	// EditText applies a literal edit in one critical section. guard nil means
	// unconditional; a given guard is checked before matching. A missing target
	// fails FS_STALE_VERSION, guarded or not.
	EditText(ctx context.Context, t Target, edit EditRequest, guard *EditGuard) (EditOutcome, error)
}

// TextByteStreamer is optionally implemented by a FileSystem whose text stream can lend its
// buffer. StreamTextBytes has StreamText's semantics (same checks, same errors, the concatenated
// chunks equal ReadText's result), but each chunk is a view into the provider's buffer, valid only
// until the loop body returns. Consumers that handle each chunk before the next (a line counter,
// a hash) prefer it: such a stream needs no allocation per chunk.
//
//	if bs, ok := fsys.(fs.TextByteStreamer); ok {
//		seq, err := bs.StreamTextBytes(ctx, target)
//		...
//	}
type TextByteStreamer interface {
	StreamTextBytes(ctx context.Context, t Target) (iter.Seq2[[]byte, error], error)
}

// StatReader is optionally implemented by a FileSystem that describes a file and reads a small one
// in one look: a reader that would call Stat and then ReadText calls StatText. StatText describes t
// as Stat does ((nil, nil, nil) when absent, Stat's errors with a nil Info). When t is a regular file
// of fewer than below bytes it also reads it as ReadText does (the same text, charset and errors,
// then with the Info), and the Info describes the file the text was read from: its Version is the
// version of the bytes read, not of an earlier look at the path. Otherwise the outcome is nil. It
// never reads below bytes: a file that has them once opened (replaced or grown since the look) is
// described, with a Size of at least below, and not read.
//
//	info, read, err := sr.StatText(ctx, target, 1<<20)
//	switch {
//	case info == nil: // absent, or err is Stat's
//	case err != nil: // ReadText's failure
//	case read == nil: // not a regular file, or too large to read whole
//	}
type StatReader interface {
	StatText(ctx context.Context, t Target, below int64) (*Info, *ReadOutcome, error)
}

// DiffBasisBounder is an optional FileSystem capability: the exclusive bound, in bytes, on the texts
// a provider keeps as a diff basis (WriteOutcome.Before is nil at or above it). Consumers bound what
// they carry of a mutation's texts by it too: the tools' values drop before and after beyond it.
type DiffBasisBounder interface {
	DiffBasisMaxBytes() int64
}

// DefaultDiffBasisMaxBytes is the bound of a provider that does not say (10 MiB), and the default
// of the stock providers' diffBasisMaxBytes.
const DefaultDiffBasisMaxBytes int64 = 10485760
