// Package fstest checks that a filesystem provider keeps the contract of the fs seam, as
// testing/fstest.TestFS does for an io/fs.FS. It is for anyone who writes an fs.FileSystem: run it
// from the provider's tests and every tool built on the seam (read, write, edit, glob, grep) can
// rely on the provider the way it relies on fs-local.
//
//	func TestConformance(t *testing.T) {
//		fstest.TestFileSystem(t, func(t *testing.T, root string) fs.FileSystem {
//			p, err := myfs.New(myfs.Config{Cwd: root})
//			if err != nil {
//				t.Fatal(err)
//			}
//			return p
//		})
//	}
//
// TestFileSystem hands newFS a fresh empty directory (physical: no symbolic link on its path) that
// the provider must serve as a host directory and use as its default base for relative paths. The
// checks lay out their fixtures there with the os package, byte for byte, and read the provider's
// writes back the same way. Each check runs as a subtest (TestConformance/WriteText/bom) in a
// directory of its own, and reports every violation it finds with the call, what it returned and
// what the contract wants. CheckFileSystem runs the same checks without a testing.T and returns a
// *Report.
//
// What is checked (docs/testing.md lists every check):
//
//   - Resolve: blank paths (FS_NOT_FOUND), display paths (lexical join to the base, no "~", links
//     unresolved), one key per file whatever the spelling and across creation, resolving through
//     a file (FS_NOT_FOUND) and a file spelled as a directory (FS_NOT_DIRECTORY); ProcessPath,
//     FileURL and Contains.
//   - Stat and Lstat of files, directories, links, FIFOs and absent entries; versions stable while
//     nothing writes and new after every write, also one made by another process.
//   - Text reads: bytes as they are but for a leading BOM, NUL in the first 8192 bytes and invalid
//     UTF-8 as FS_NOT_TEXT, directories and FIFOs as FS_NOT_REGULAR_FILE (without blocking);
//     ReadText, StreamText and, when implemented, fs.TextByteStreamer agree, also on long texts;
//     fs.StatReader, when implemented, gives Stat's Info and ReadText's text and errors below its bound;
//     ReadBytes and its limit.
//   - ListDir order, entries and errors.
//   - WriteText: creates, updates, CreateIfAbsent (FS_NOT_OBSERVED), ReplaceIfVersion
//     (FS_STALE_VERSION), directories, BOM keeping, symbolic links, no staging residue, and
//     racing guarded writes (one wins).
//   - EditText: literal matching (FS_EDIT_NOT_FOUND, FS_AMBIGUOUS_EDIT, ReplaceAll), bytes
//     outside the edit kept (CRLF, lone CR), BOM kept, guards checked before matching, binary and
//     invalid UTF-8 files refused untouched, racing guarded edits.
//   - Cancellation: FS_ABORTED "<verb> aborted" from every primitive, nothing changed, no lock
//     left held; a stream cancelled midway stops.
//   - fs.Searcher, when implemented: Glob and Grep results, order, ignore rules, pattern errors.
//
// Errors are compared as the tools compare them: errors.As finds an *fs.Error, errors.Is matches
// its code sentinel, and its message is the seam's constructor's, byte for byte (models read it).
//
// The package imports only the seam and the standard library.
package fstest
