package toolfssearch

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ErrorName is the class name of the SEARCH_* errors.
const ErrorName = "SearchError"

// The SEARCH_* codes.
const (
	CodeInvalidPattern = "SEARCH_INVALID_PATTERN"
	CodeAborted        = "SEARCH_ABORTED"
	CodeFailed         = "SEARCH_FAILED"
)

func invalidPattern(tool string, err error) error {
	return tools.NewError(ErrorName, CodeInvalidPattern, searchText.MustRender("search.error.invalid_pattern", "tool", tool, "reason", err.Error()), err)
}

// withHint adds hint on the lines after a refusal's first (nothing when hint is "").
func withHint(err error, hint string) error {
	var te *tools.Error
	if hint == "" || !errors.As(err, &te) {
		return err
	}
	return tools.NewError(te.Name(), te.Code(), te.Message()+"\n"+hint, err)
}

func aborted(tool string, cause error) error {
	return tools.NewError(ErrorName, CodeAborted, searchText.MustRender("search.error.aborted", "tool", tool), cause)
}

func failed(tool string, cause error) error {
	return tools.NewError(ErrorName, CodeFailed, searchText.MustRender("search.error.failed", "tool", tool, "reason", cause.Error()), cause)
}

func notFound(dp string, cause error) error {
	return fs.NewError(fs.CodeNotFound, searchText.MustRender("search.error.not_found", "path", dp), cause)
}

func notDirectory(dp string) error {
	return fs.NewError(fs.CodeNotDirectory, searchText.MustRender("search.error.not_directory", "path", dp), nil)
}

// searchFailure maps a provider failure: a pattern the provider rejected, the end of ctx (or an
// FS_ABORTED), a sandbox denial as it is (its first line is the sandbox marker: docs/sandbox.md
// "Roots"), anything else SEARCH_FAILED.
func searchFailure(ctx context.Context, tool string, err error) error {
	var pe *fs.PatternError
	switch {
	case fs.HasCode(err, fs.CodeSandboxDenied):
		return err
	case errors.As(err, &pe):
		return invalidPattern(tool, pe.Err)
	case ctx.Err() != nil:
		return aborted(tool, context.Cause(ctx))
	case fs.HasCode(err, fs.CodeAborted):
		return aborted(tool, err)
	}
	return failed(tool, err)
}
