package toolfssearch

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/cordon-dev/cordon/internal/jstext"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The argument errors: plain errors (no code), as read's are.
var (
	errBlankPattern   = errors.New("pattern must be a non-empty string")
	errBlankPath      = errors.New("path must be a non-empty string when given")
	errBlankInclude   = errors.New("include must be a non-empty glob when given")
	errNegatedInclude = errors.New(`include must be a positive glob filter; negated patterns ("!…") are not supported`)
	errIncludeList    = errors.New("include must be one glob, not a comma-separated list (use {a,b} alternation instead)")
)

// GlobArgs are validated glob arguments; Path is "" when not given.
type GlobArgs struct {
	Pattern, Path string
}

// ParseGlobArgs validates schema-valid glob arguments: a pattern blank after trimming, then a
// given but blank path.
func ParseGlobArgs(raw json.RawMessage) (GlobArgs, error) {
	var a struct {
		Pattern string  `json:"pattern"`
		Path    *string `json:"path"`
	}
	if err := tools.DecodeArgs(raw, &a); err != nil {
		return GlobArgs{}, err
	}
	if jstext.IsBlank(a.Pattern) {
		return GlobArgs{}, errBlankPattern
	}
	path, err := optionalPath(a.Path)
	return GlobArgs{Pattern: a.Pattern, Path: path}, err
}

// GrepArgs are validated grep arguments; Path and Include are "" when not given.
type GrepArgs struct {
	Pattern, Path, Include string
}

// ParseGrepArgs validates schema-valid grep arguments: an empty pattern (whitespace is a
// pattern), a given but blank path, then the include (ValidateInclude).
func ParseGrepArgs(raw json.RawMessage) (GrepArgs, error) {
	var a struct {
		Pattern string  `json:"pattern"`
		Path    *string `json:"path"`
		Include *string `json:"include"`
	}
	if err := tools.DecodeArgs(raw, &a); err != nil {
		return GrepArgs{}, err
	}
	if a.Pattern == "" {
		return GrepArgs{}, errBlankPattern
	}
	path, err := optionalPath(a.Path)
	if err != nil {
		return GrepArgs{}, err
	}
	out := GrepArgs{Pattern: a.Pattern, Path: path}
	if a.Include != nil {
		if err := ValidateInclude(*a.Include); err != nil {
			return GrepArgs{}, err
		}
		out.Include = *a.Include
	}
	return out, nil
}

func optionalPath(p *string) (string, error) {
	if p == nil {
		return "", nil
	}
	if jstext.IsBlank(*p) {
		return "", errBlankPath
	}
	return *p, nil
}

// ValidateInclude refuses an include that is not one positive glob: blank, starting with '!', or
// holding a comma outside braces ("*.{ts,tsx}" is one glob).
func ValidateInclude(include string) error {
	if jstext.IsBlank(include) {
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
