// Package gitconfig reads git config files as git itself reads them (config.c, git_parse_source):
// the one parser every part of Cordon uses to learn what a repository's or a user's git config
// says.
//
// Parse turns the bytes of one file into its variables, in file order, one Entry each. It follows
// git's syntax at its corners: a UTF-8 byte order mark is skipped, CRLF reads as LF, section and
// variable names are ASCII and case-insensitive (lower-cased in an Entry), a quoted subsection
// ([diff "Name"]) keeps its case while the legacy dotted form ([diff.Name]) is lower-cased, "#"
// and ";" start comments outside quotes, a value has its surrounding white space trimmed, its
// quotes removed, the escapes \\ \" \n \t \b applied and backslash-newline continuations joined,
// and each unquoted white space byte inside it reads as one space. A variable written without "="
// has no value (HasValue false: git's boolean true); one before any section has an empty Section.
//
// Parse does not follow include or includeIf (an Entry for include.path is returned like any
// other; following it is the caller's policy), does not read a file (the caller opens, bounds and
// reads it), and does not interpret values (a path's "~", a boolean, an integer's suffix).
//
// Where git stops with "bad config line" and refuses the whole file, Parse returns an error
// wrapping ErrSyntax that names the first bad line, together with the variables of every line it
// could read, the bad ones skipped: a caller that must not miss what such a file names (a
// sandbox protecting the paths it names) uses them all, and one that must not act on a file git
// refuses checks the error.
//
// The parse is held to git's: every test case, and every input FuzzParse generates, gives the
// variables `git config --list` prints for it, and is refused where git refuses it.
package gitconfig
