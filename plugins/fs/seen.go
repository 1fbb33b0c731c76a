package fs

// Seen is what a caller saw of a present file's text, carried by its Observation so a policy can
// decide staleness on content rather than on the version token alone (docs/fs.md "Staleness").
type Seen struct {
	// Lines is the file's line count when it was seen: a line ends after '\n', and a last line
	// without one counts too.
	Lines int
	// Windows are the runs of whole lines the caller saw, in the order they were seen.
	Windows []SeenWindow
}

// SeenWindow is one run of whole lines a caller saw.
type SeenWindow struct {
	// First is the 1-based number of the first line; Count the number of lines (0 only for an
	// empty file seen whole).
	First, Count int
	// Sum is the digest of the lines' bytes, line breaks included (plugins/fs/seen.Sum).
	Sum uint64
	// Text is those bytes when Kept (up to a bound; beyond it only Sum is kept).
	Text string
	Kept bool
}

// Last is the number of the window's last line (First-1 when it is empty).
func (w SeenWindow) Last() int { return w.First + w.Count - 1 }

// LineRange is a run of 1-based line numbers, First through Last.
type LineRange struct {
	First int `json:"first"`
	Last  int `json:"last"`
}

// Recheck is carried by a guard whose decider judges staleness on content. A provider that finds
// the target at another version than the guard's calls it under the target's mutation lock, before
// it changes anything, with the file's current text (decoded, BOM set aside, line breaks as on
// disk) and version, and goes on only when it returns nil. Without a Recheck a version mismatch
// is stale.
type Recheck interface {
	// Write decides a whole-file replacement over text, found at version v.
	Write(v Version, text string) error
	// Edit decides an edit over text, found at version v; touched are the lines its matches span,
	// or nil when old_string does not match (or matches more than once without replace_all). On
	// success it returns the lines that differ from what was seen outside touched (nil when none
	// is known).
	Edit(v Version, text string, touched []LineRange) (elsewhere []LineRange, err error)
}

// Guidance is the cause an error carries to tell the model more than its first line: a tool
// renders Text on the lines after the error's message (docs/tool-fs.md).
type Guidance struct{ Text string }

// Error returns the guidance text.
func (g *Guidance) Error() string { return g.Text }

// PresentSeen returns the observation "present at v, having seen s".
func PresentSeen(v Version, s *Seen) Observation {
	return Observation{Kind: ObservedPresent, Version: v, Seen: s}
}
