package history

import (
	"strconv"
	"strings"
	"time"
)

// Record is one published change: where, by whom, and what the file was before it.
type Record struct {
	// ID is the change id, "c<seq>" (seq grows by one per change in a store).
	ID        string    `json:"id"`
	Time      time.Time `json:"time"`
	Workspace string    `json:"workspace,omitempty"`
	// Path is the canonical absolute path (fs.FileSystem.ProcessPath), Display the display path and
	// Key the provider's target key.
	Path    string `json:"path"`
	Display string `json:"display"`
	Key     string `json:"key"`
	Session string `json:"session,omitempty"`
	// Tool is the tool that made the change (write, edit, apply_patch, undo, or the host's command);
	// Verb the provider's (write, edit, restore).
	Tool string `json:"tool,omitempty"`
	Verb string `json:"verb"`
	// Existed says the file existed before; Mode (st_mode permission bits, 0o7777), Size, Digest
	// (sha256, hex) and VersionBefore
	// describe it then. Kept says its bytes are in the store (false: by reference only, not
	// undoable).
	Existed       bool   `json:"existed"`
	Mode          uint32 `json:"mode,omitempty"`
	Size          int64  `json:"size"`
	Digest        string `json:"digest,omitempty"`
	Kept          bool   `json:"kept"`
	VersionBefore string `json:"versionBefore,omitempty"`
	// VersionAfter is the file's version after the change ("" when it removed the file).
	VersionAfter string `json:"versionAfter"`
	// Undoes names the change this one undid; UndoneBy the undo that undid this one.
	Undoes   string `json:"undoes,omitempty"`
	UndoneBy string `json:"undoneBy,omitempty"`
	// Pending marks a record committed before its change was published and not yet completed:
	// AfterDigest (sha256 of the bytes the change publishes; "" for a removal) and PID (the
	// process making it) let the next start settle it (docs/history.md "Crash safety").
	Pending     bool   `json:"pending,omitempty"`
	AfterDigest string `json:"afterDigest,omitempty"`
	PID         int    `json:"pid,omitempty"`
	// Interrupted marks a pending record whose change could not be settled: the file matched
	// neither the bytes before nor the bytes after (undo refuses it; undo --force can restore).
	Interrupted bool `json:"interrupted,omitempty"`
	// Group is shared by the changes of one tool call (the files of one apply_patch), "" for a
	// change made outside a tool call and in records written before groups were kept.
	Group string `json:"group,omitempty"`
	// MadeDirs are the directories a creation made for its file (its parents that did not exist),
	// innermost first; an undo of the creation removes those that are empty then.
	MadeDirs []string `json:"madeDirs,omitempty"`
}

// By is the record's tool, or its verb when no tool made it.
func (r *Record) By() string {
	if r.Tool != "" {
		return r.Tool
	}
	return r.Verb
}

// Stamp is the record's time as the messages show it (RFC 3339, UTC, seconds).
func (r *Record) Stamp() string { return r.Time.UTC().Format(time.RFC3339) }

func changeID(seq uint64) string { return "c" + strconv.FormatUint(seq, 10) }

// ParseChangeID returns the sequence number of a change id ("c17"), ok false for anything else.
func ParseChangeID(s string) (uint64, bool) {
	digits, ok := strings.CutPrefix(s, "c")
	if !ok || digits == "" || digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	return n, err == nil
}
