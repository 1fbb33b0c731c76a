package toolfssearch

import (
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/internal/texts"
)

// The argument errors: plain errors (no code), as read's are.
var (
	errBlankPattern   = errors.New(searchText.Text("search.error.blank_pattern"))
	errBlankPath      = errors.New(searchText.Text("search.error.blank_path"))
	errBlankInclude   = errors.New(searchText.Text("grep.error.blank_include"))
	errNegatedInclude = errors.New(searchText.Text("grep.error.negated_include"))
	errIncludeList    = errors.New(searchText.Text("grep.error.include_list"))
)

// globArgs are glob's arguments as the schema admits them.
type globArgs struct {
	Pattern string  `json:"pattern"`
	Path    *string `json:"path"`
}

// globInput is a validated glob request; path is "" when not given.
type globInput struct {
	pattern, path string
}

// parseGlobArgs validates schema-valid glob arguments: a pattern blank after trimming, then a
// given but blank path.
func parseGlobArgs(a globArgs) (globInput, error) {
	if texts.IsBlank(a.Pattern) {
		return globInput{}, errBlankPattern
	}
	path, err := optionalPath(a.Path)
	return globInput{pattern: a.Pattern, path: path}, err
}

// grepArgs are grep's arguments as the schema admits them.
type grepArgs struct {
	Pattern string  `json:"pattern"`
	Path    *string `json:"path"`
	Include *string `json:"include"`
}

// grepInput is a validated grep request; path and include are "" when not given.
type grepInput struct {
	pattern, path, include string
}

// parseGrepArgs validates schema-valid grep arguments: an empty pattern (whitespace is a
// pattern), a given but blank path, then the include (ValidateInclude).
func parseGrepArgs(a grepArgs) (grepInput, error) {
	if a.Pattern == "" {
		return grepInput{}, errBlankPattern
	}
	path, err := optionalPath(a.Path)
	if err != nil {
		return grepInput{}, err
	}
	out := grepInput{pattern: a.Pattern, path: path}
	if a.Include != nil {
		if err := ValidateInclude(*a.Include); err != nil {
			return grepInput{}, err
		}
		out.include = *a.Include
	}
	return out, nil
}

func optionalPath(p *string) (string, error) {
	if p == nil {
		return "", nil
	}
	if texts.IsBlank(*p) {
		return "", errBlankPath
	}
	return *p, nil
}

// ValidateInclude refuses an include that is not one positive glob: blank, starting with '!', or
// holding a comma outside braces ("*.{ts,tsx}" is one glob).
func ValidateInclude(include string) error {
	if texts.IsBlank(include) {
		return errBlankInclude
	}
	if strings.HasPrefix(include, "!") {
		return errNegatedInclude
	}
	depth := 0
	for i := 0; i < len(include); i++ {
		switch include[i] {
		case '{':
			depth++
		case '}':
			depth = max(0, depth-1)
		case ',':
			if depth == 0 {
				return errIncludeList
			}
		}
	}
	return nil
}
