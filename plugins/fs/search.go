package fs

import "context"

// VerbSearch names a search in the FS_ABORTED message ("search aborted").
const VerbSearch = "search"

// Searcher is optionally implemented by a FileSystem that lists and searches a tree itself (the
// glob and grep tools of tool-fs-search need it; without it they are not registered). The provider
// decides what is searched: it walks below root without following symbolic links, never enters VCS
// metadata directories, applies the ignore rules (.gitignore, .ignore, .git/info/exclude, the
// user's global excludes) unless IncludeIgnored, and never blocks on a FIFO, socket or device.
// Results are newest first by modification time, ties by path in byte order.
//
//	if s, ok := fsys.(fs.Searcher); ok {
//		res, err := s.Glob(ctx, root, fs.GlobQuery{Pattern: "**/*.go"})
//		...
//	}
//
// Errors: a pattern that does not compile is a *PatternError; cancellation is FS_ABORTED
// ("search aborted"); a root that cannot be read is the provider's error. Entries below the root
// that cannot be read are skipped and counted (Skipped in the results).
type Searcher interface {
	// Glob lists the files below the directory root whose path matches q.Pattern.
	Glob(ctx context.Context, root Target, q GlobQuery) (GlobResult, error)
	// Grep calls emit for every line of the files below root (or of root itself, a file searched
	// whatever the rules and include say) that matches q.Pattern: files newest first, lines in file
	// order, one call at a time. An error of emit stops the search and is returned.
	Grep(ctx context.Context, root Target, q GrepQuery, emit func(LineMatch) error) (GrepResult, error)
}

// SearchLimits are the options both searches share.
type SearchLimits struct {
	// IncludeIgnored also lists and searches files that ignore rules exclude.
	IncludeIgnored bool
	// MaxVisited stops the walk after this many directory entries (0: no limit).
	MaxVisited int
}

// GlobQuery is a file listing: Pattern is a glob (*, ?, [...], {a,b}, **); without "/" it matches
// file names at any depth, with "/" the path relative to the root.
type GlobQuery struct {
	Pattern string
	SearchLimits
}

// GlobResult lists the files found, newest first. Stopped: the walk reached MaxVisited. Skipped:
// how many entries below the root could not be read (no permission, vanished while walking).
// PartialIgnore: how many ignore files were applied in part (rules past the provider's caps left
// out).
type GlobResult struct {
	Files         []FoundFile
	Stopped       bool
	Skipped       int
	PartialIgnore int
}

// FoundFile is one file found. Path is its DisplayPath (the root's DisplayPath joined with the
// relative path); Rel is the slash-separated path relative to the root.
type FoundFile struct {
	Path string
	Rel  string
}

// GrepQuery is a content search: Pattern is a regular expression (RE2 syntax, Go's regexp), matched
// line by line; Include, when not empty, is a glob the files of a directory walk must match (as
// GlobQuery.Pattern); MaxLineBytes caps the text of each LineMatch.
type GrepQuery struct {
	Pattern      string
	Include      string
	MaxLineBytes int
	SearchLimits
}

// GrepResult: Stopped, the walk reached MaxVisited; Skipped, how many entries could not be read
// (GlobResult's, plus files that would not open or read, would block, or are views of kernel state
// such as the files of /proc and /sys, which are never read).
// PartialIgnore as GlobResult's.
type GrepResult struct {
	Stopped       bool
	Skipped       int
	PartialIgnore int
}

// LineMatch is one matching line. Text is lent: valid only until emit returns.
type LineMatch struct {
	// Path is the file's DisplayPath; Rel its path relative to the root ("" when root is the file).
	Path, Rel string
	// Line is the 1-based line number.
	Line int
	// Text is the line without its terminator, cut to MaxLineBytes on a UTF-8 boundary; nil when
	// the line is not valid UTF-8.
	Text []byte
	// Truncated: the line is longer than MaxLineBytes.
	Truncated bool
	// ValidUTF8: the whole line is valid UTF-8.
	ValidUTF8 bool
}

// PatternError is the failure of a search whose glob or regular expression does not compile.
// Its message is the parser's.
type PatternError struct {
	// Include: the include glob (not the pattern) was rejected.
	Include bool
	Err     error
}

func (e *PatternError) Error() string { return e.Err.Error() }

// Unwrap returns the parser's error.
func (e *PatternError) Unwrap() error { return e.Err }
