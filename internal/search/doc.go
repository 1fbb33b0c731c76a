// Package search is the file-search engine behind the glob and grep tools: a parallel walker over
// a local directory tree with git's and ripgrep's ignore rules, path globs, a line matcher (a
// literal prefilter in front of Go's regexp), binary detection and the newest-first order.
//
// It knows nothing of tools or presentation: a filesystem provider runs it (fs-local implements
// the fs seam's Searcher with it) and the tool formats what it yields.
//
// # What is walked
//
//   - The walk starts at a root directory (or a single file, for Grep) given as an absolute physical
//     path, plus the display path the results are spelled under. Entries are never followed through
//     symbolic links: a link to a directory is not entered; a link to a regular file is listed by
//     Glob (with its target's modification time) and never read by Grep. FIFOs, sockets and devices
//     are never opened. Entries that cannot be read (permission denied, vanished) are skipped and
//     counted (Found.Skipped, GrepStats.Skipped). Directories are listed with getdents and their
//     entries examined with fstatat on the directory's descriptor; a path longer than PATH_MAX is
//     opened a directory at a time, so depth is unlimited.
//   - Grep never reads a file of a kernel pseudo filesystem (proc, sysfs, tracefs, ...: see
//     isSpecialFS) and drops a file whose read returns EAGAIN; both count as skipped.
//   - Cancellation is checked before every entry and every block; once the context ends a search
//     returns within abandonGrace even when a goroutine is stuck in a system call.
//   - The VCS metadata names .git, .svn, .hg, .bzr, .jj and .sl are never listed or entered; a root
//     at or inside one yields nothing.
//   - Ignore rules (unless IncludeIgnored): .ignore files in the root, its descendants and its
//     ancestors; inside a git work tree also .gitignore files (from the work tree's top down),
//     .git/info/exclude and the user's global excludes file (core.excludesFile, else
//     $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore). Pattern syntax and matching are git's
//     (see Rules); precedence is ripgrep's: a decision from .ignore files beats one from .gitignore
//     files, which beats info/exclude, which beats the global file; within one kind the deepest
//     directory decides, and within one file the last matching line. An excluded directory is not
//     entered, so nothing below it can be re-included. The root itself is never tested: a path named
//     explicitly is searched even when a rule covers it. Each ignore file is compiled once into one
//     matcher (ruleList) and capped (maxIgnoreBytes, maxWildcardBytes); a file past a cap is
//     applied in part and counted (Found.PartialIgnore).
//   - The walk visits directories level by level (breadth first), each level's directories read in
//     parallel, and counts every entry it lists. With Options.MaxVisited reached it stops, keeping
//     the first entries in a deterministic order (level, then parent order, then name), and reports
//     Stopped.
//
// # Order
//
// Results are newest first by modification time (nanoseconds), ties by path in byte order.
//
// # Grep
//
// Files are read from their start in 64 KiB blocks; the first block that holds a NUL byte ends the
// file's search, that block and every later one contributing nothing (lines whose terminator lies
// before that block count). Lines end at '\n'; a '\r' before it is not part of the line; a match
// never spans lines. A line counts once however many matches it holds. Memory is bounded by the
// block buffer and the longest line kept, not by the file: a line longer than the carry buffer is
// streamed (its literal prefilter over the stream, then, if needed, the regexp over a re-read of
// that line).
//
// The matcher compiles the pattern with regexp (RE2 syntax) and derives from regexp/syntax a set of
// literals one of which every match must contain. Lines lacking all of them are never given to the
// regexp; when the pattern is exactly such literals the regexp never runs at all.
//
// Files are searched by GOMAXPROCS workers; results are handed to the caller in the final order
// (files newest first, lines in file order) by whichever worker owns the oldest unfinished file, so
// memory stays bounded and the output is deterministic.
package search
