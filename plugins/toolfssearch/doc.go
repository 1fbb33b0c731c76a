// Package toolfssearch is the plugin "tool-fs-search": the model-facing glob and grep tools. They
// reach files only through the fs seam's optional Searcher interface (fs-local and fs-sandbox
// implement it with package internal/search); with a provider that lacks it the tools are not
// registered and one warning names the provider.
//
// The plugin owns the schemas, the argument checks, display paths, the inline caps and sampling,
// the spill files, the model-facing texts and errors, and the guidance; the provider owns what is
// walked and matched. The contract, every message and every config key is docs/search.md.
//
//   - glob: the decoded arguments checked, the pattern compiled (SEARCH_INVALID_PATTERN), the root
//     resolved against the session cwd and checked (FS_NOT_FOUND, FS_NOT_DIRECTORY), Searcher.Glob,
//     display paths, then the inline page: the head, or SampleAcrossTopLevel; an over-cap result is
//     spilled whole.
//   - grep: the decoded arguments checked (ValidateInclude), the pattern and include compiled, the
//     root (a file or a directory), Searcher.Grep into a sink that keeps grepMaxMatches lines and
//     streams the rest to the spill file; the spill is published with its "Found T matches" header
//     at the end.
//   - Both run under timeoutMs (SEARCH_ABORTED, as for caller cancellation); any other provider
//     failure is SEARCH_FAILED. Searches emit no fs/observed and take no lock.
//
// The tool bodies (glob.go, grep.go) are plain functions of a suite and its caps; only plugin.go
// knows the tools runtime's registration.
package toolfssearch
