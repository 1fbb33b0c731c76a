// Package hostfs is the host filesystem provider of the fs seam (package fs):
// the library under the two plugins that serve the host filesystem, fs-local
// (package fslocal: a Provider rooted at its configured cwd) and fs-sandbox
// (package fssandbox: a Provider behind a per-call fence). It is not a plugin
// and imports no plugin. A Provider never confines (it is no sandbox.Confiner) and its
// cwd is a resolution default, not a boundary. Its messages are fs-local's,
// whichever plugin serves it ("fs-local: ...").
//
// Identity: Resolve joins the path lexically to the base (the call's Cwd, else
// the configured cwd) into the DisplayPath; the Key is the physical path
// (realpath), or for a missing path the realpath of the nearest existing
// ancestor plus the missing suffix, so a key is stable across creation and
// symlink aliases share it. Resolving through a regular file fails
// FS_NOT_FOUND; there is no "~" expansion. A NUL anywhere in the path or the
// base is refused before the join (FS_NOT_FOUND, fs.PathHasNUL); a path spelled as a directory
// (fs.NamesDirectory) whose entry is not one fails FS_NOT_DIRECTORY
// (docs/fs.md).
//
// Versions: "<dev>:<ino>:<size>:<mtimeNs>:<ctimeNs>" of a stat that follows
// symlinks, so every atomic rewrite (a new inode) and any same-size rewrite
// (a new ctime) changes the version.
//
// Reads: ReadText, StreamText and ReadBytes check for a regular file first,
// and again on the descriptor they open without blocking (a FIFO swapped in
// meanwhile is FS_NOT_REGULAR_FILE, never a hang).
// Text reads reject a NUL in the first 8192 bytes (FS_NOT_TEXT "binary file")
// before strict UTF-8 validation (FS_NOT_TEXT "invalid UTF-8 text"), consume a
// leading BOM and never normalize newlines. StreamText yields the same text
// in chunks with memory bounded independently of the file size. ReadBytes
// never reads past maxBytes+1.
//
// Charsets (charset.go, docs/encodings.md): a UTF-16 BOM or a charset declared
// by Config.Encodings or .editorconfig makes the text paths decode the file
// (whole, at most maxFileBytes), refuse it unless it round-trips, and encode
// what edit and write store, re-encoding only the replaced spans of an edit.
//
// ListDir: children in a pinned collation approximating the reference's
// locale-aware order (see compareNames), resolved against the parent's key.
// Directories are opened O_DIRECTORY|O_NONBLOCK.
//
// Edits match on the LF-normalized text and splice the file's own bytes: only
// the matched spans change. A replacement keeps the owner and group (where the
// process may set them), extended attributes (not security.capability) and
// mode bits, and refuses a file the process could not open for writing or
// with no write bit (FS_PERMISSION_DENIED) and one with several hard links
// (FS_IO_ERROR) (docs/fs.md).
//
// Mutations: WriteText and EditText run under a per-key FIFO lock and publish
// atomically through a private staging directory (see write.go, edit.go and
// atomic.go). They refuse a target whose key is not absolute (one Resolve
// cannot have produced) with ErrForeignTarget. Any name the file system
// accepts is writable: the staging names keep a prefix of a long name.
//
// Confinement (the extension point of fs-sandbox): WriteTextBeneath and
// EditTextBeneath are the same mutations with every directory operation
// (parent creation, staging directory, exclusive temp create, rename or link
// publication, cleanup) run relative to descriptors reached
// beneath a root without following a symlink (openat2 RESOLVE_BENEATH on
// Linux, an O_NOFOLLOW walk elsewhere); a symlink met on the way is refused
// through Beneath.Deny (see beneath.go). The confining provider may also vet,
// on the descriptors the mutation holds, each entry it adds (Beneath.Adding)
// and each held directory right before publication (Beneath.Holding).
// WriteText and EditText never confine.
//
// Errors: every failure of a primitive is an *fs.Error: the exact messages of
// the spec, and for the OS failures the spec leaves raw (ELOOP or EACCES while
// resolving, ENOSPC or EROFS while writing, ...) fs.FromOS's code and message,
// which name the display path and never the staging directory, the OS error
// the cause (docs/fs.md, "Errors"). A refusal by Beneath.Deny is returned as
// Deny made it. Cancellation of the context fails with FS_ABORTED
// "<verb> aborted" at the checkpoints of the spec.
//
// Crash residue: every staging directory is recorded, before it is created,
// in this process's registry under the user's state directory; the first
// provider of a process removes those of dead processes (package
// hostfs/staging, docs/fs.md "Crash residue"). No write lists a directory.
package hostfs
