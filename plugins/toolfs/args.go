package toolfs

import (
	"encoding/json"
	"errors"
	"math"

	"github.com/cordon-dev/cordon/internal/texts"
)

// The tools' own argument errors: plain errors (no code), from texts.json.
var (
	errBlankPath      = errors.New(fsText.Text("read.error.blank_path"))
	errOffset         = errors.New(fsText.Text("read.error.offset"))
	errLimit          = errors.New(fsText.Text("read.error.limit"))
	errOldStringEmpty = errors.New(fsText.Text("edit.error.old_string_empty"))
	errSameStrings    = errors.New(fsText.Text("edit.error.same_strings"))
	limitMax          = fsText.Template("read.error.limit_max", "max")
)

// readInput is a validated read request.
type readInput struct {
	filePath      string
	offset, limit int
	// offsetText is the offset as JavaScript prints the number (it differs from offset only
	// past 2^53, where offset saturates), for the out-of-range message.
	offsetText string
}

// readArgs are read's arguments as the schema admits them.
type readArgs struct {
	FilePath string   `json:"file_path"`
	Offset   *float64 `json:"offset"`
	Limit    *float64 `json:"limit"`
}

// parseReadArgs validates schema-valid read arguments, in order: a blank file_path, the offset,
// the limit, then the limit against maxLimit (which is also the default limit).
func parseReadArgs(a readArgs, maxLimit int) (readInput, error) {
	if texts.IsBlank(a.FilePath) {
		return readInput{}, errBlankPath
	}
	in := readInput{filePath: a.FilePath, offset: 1, limit: maxLimit, offsetText: "1"}
	if a.Offset != nil {
		if !isPositiveInteger(*a.Offset) {
			return readInput{}, errOffset
		}
		in.offset = toInt(*a.Offset)
		in.offsetText = texts.Number(*a.Offset)
	}
	if a.Limit != nil {
		if !isPositiveInteger(*a.Limit) {
			return readInput{}, errLimit
		}
		if *a.Limit > float64(maxLimit) {
			return readInput{}, errors.New(limitMax.RenderInts(maxLimit))
		}
		in.limit = int(math.Min(*a.Limit, float64(maxLimit)))
	}
	return in, nil
}

// writeInput is a validated write request; content may be empty.
type writeInput struct {
	filePath, content string
}

// writeArgs are write's arguments as the schema admits them, with the sandbox's escalation
// arguments as sent (the sandbox hook checks them).
type writeArgs struct {
	FilePath      string          `json:"file_path"`
	Content       string          `json:"content"`
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

func parseWriteArgs(a writeArgs) (writeInput, error) {
	if texts.IsBlank(a.FilePath) {
		return writeInput{}, errBlankPath
	}
	return writeInput{filePath: a.FilePath, content: a.Content}, nil
}

// editInput is a validated edit request.
type editInput struct {
	filePath, oldString, newString string
	replaceAll                     bool
}

// editArgs are edit's arguments as the schema admits them, with the sandbox's escalation
// arguments as sent (the sandbox hook checks them).
type editArgs struct {
	FilePath      string          `json:"file_path"`
	OldString     string          `json:"old_string"`
	NewString     string          `json:"new_string"`
	ReplaceAll    *bool           `json:"replace_all"`
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

// parseEditArgs validates, in order: a blank file_path, an empty (not trimmed) old_string, and
// old_string equal to new_string (exact comparison, before any line-ending normalization).
func parseEditArgs(a editArgs) (editInput, error) {
	if texts.IsBlank(a.FilePath) {
		return editInput{}, errBlankPath
	}
	if a.OldString == "" {
		return editInput{}, errOldStringEmpty
	}
	if a.OldString == a.NewString {
		return editInput{}, errSameStrings
	}
	in := editInput{filePath: a.FilePath, oldString: a.OldString, newString: a.NewString}
	if a.ReplaceAll != nil {
		in.replaceAll = *a.ReplaceAll
	}
	return in, nil
}
