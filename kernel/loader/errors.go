package loader

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors, matched with errors.Is through an *EntryError.
var (
	// ErrUnknownModule: the entry's name is not in the kernel's catalog.
	ErrUnknownModule = errors.New("unknown module")
	// ErrDuplicateID: two entries resolve to the same id.
	ErrDuplicateID = errors.New("duplicate id")
	// ErrNoName: the entry has no name.
	ErrNoName = errors.New("name is required")
	// ErrNoConfig: the entry has a config but its module takes none.
	ErrNoConfig = errors.New("module takes no config")
	// ErrUnknownKey is matched by every *UnknownKeyError.
	ErrUnknownKey = errors.New("unknown key")
)

// EntryError names the composition entry that an error belongs to. Every error from Parse, Apply
// and the boot audit that concerns one entry is an *EntryError.
type EntryError struct {
	Index int    // position in the entry list, 0-based
	ID    string // the entry's id (given or generated), empty when not yet known
	Name  string // the entry's module name, empty when missing
	Err   error
}

func (e *EntryError) Error() string { return entryLabel(e.Index, e.ID, e.Name) + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *EntryError) Unwrap() error { return e.Err }

// entryLabel renders `entry "fs" (fs-local)`, or `entry #3 (fs-local)` for an entry whose id is not
// known yet.
func entryLabel(index int, id, name string) string {
	var b strings.Builder
	if id != "" {
		fmt.Fprintf(&b, "entry %q", id)
	} else {
		fmt.Fprintf(&b, "entry #%d", index+1)
	}
	if name != "" && name != id {
		fmt.Fprintf(&b, " (%s)", name)
	}
	return b.String()
}

// UnknownKeyError reports a mapping key that has no field to go to: a misspelt entry field, an
// unknown top-level key or a config key that the module's config type does not declare.
type UnknownKeyError struct {
	Key   string   // the offending key
	Line  int      // 1-based line in the composition source, 0 when unknown
	In    string   // what was being decoded: "entry", "composition" or the config's Go type
	Known []string // the accepted keys, when they are a fixed set
}

func (e *UnknownKeyError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	fmt.Fprintf(&b, "unknown key %q", e.Key)
	if e.In != "" {
		fmt.Fprintf(&b, " in %s", e.In)
	}
	if len(e.Known) > 0 {
		fmt.Fprintf(&b, " (known keys: %s)", strings.Join(e.Known, ", "))
	}
	return b.String()
}

// Is reports whether target is ErrUnknownKey.
func (e *UnknownKeyError) Is(target error) bool { return target == ErrUnknownKey }

// SyntaxError is a YAML error at a line of the composition source.
type SyntaxError struct {
	Line int // 1-based, 0 when unknown
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

var (
	_ error = (*EntryError)(nil)
	_ error = (*UnknownKeyError)(nil)
	_ error = (*SyntaxError)(nil)
	_ error = (*AuditError)(nil)
)
