package toolfssearch

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// GlobValue is the canonical value of a glob: the paths shown inline (in display order), how many
// matched, how the page was chosen, where the complete list was saved ("" when it was not needed
// or could not be saved), when the spill file reached its limit how many paths it kept and that
// limit (else 0, 0), when the walk stopped early, the entry limit (else 0), and how many entries
// could not be read.
type GlobValue struct {
	Paths        []string `json:"paths"`
	Total        int      `json:"total"`
	Sampled      bool     `json:"sampled"`
	EntriesShown int      `json:"entriesShown"`
	EntriesTotal int      `json:"entriesTotal"`
	SpillPath    string   `json:"spillPath"`
	SpillKept    int      `json:"spillKept"`
	SpillLimit   int64    `json:"spillLimit"`
	StoppedAfter int      `json:"stoppedAfter"`
	Skipped      int      `json:"skipped"`
	// PartialIgnore counts the ignore files applied only in part.
	PartialIgnore int `json:"partialIgnore"`
}

// GrepValue is the canonical value of a grep: the matches shown inline, how many lines matched in
// all, the spill file ("" when not needed or not saved), when the spill file reached its limit how
// many matches it kept and that limit (else 0, 0), the entry limit the walk stopped at (0) and how
// many entries could not be read.
type GrepValue struct {
	Matches      []GrepMatch `json:"matches"`
	Total        int         `json:"total"`
	SpillPath    string      `json:"spillPath"`
	SpillKept    int         `json:"spillKept"`
	SpillLimit   int64       `json:"spillLimit"`
	StoppedAfter int         `json:"stoppedAfter"`
	Skipped      int         `json:"skipped"`
	// PartialIgnore counts the ignore files applied only in part.
	PartialIgnore int `json:"partialIgnore"`
}

// GrepMatch is one matching line: the file's display path, the line number, the kept text (cut to
// grepMaxLineBytes; "" when the line is not valid UTF-8) and the two flags.
type GrepMatch struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
	ValidUTF8 bool   `json:"validUTF8"`
}

// The texts of a match line (texts.json).
var (
	truncatedSuffix = searchText.Text("grep.line.truncated")
	invalidUTF8Line = searchText.Text("grep.line.invalid_utf8")
)

// The texts of an empty result (texts.json).
var (
	noFiles   = searchText.Text("glob.none")
	noMatches = searchText.Text("grep.none")
)

// savedAs is where a result was saved: the spill file ("" when none), and when the file reached
// its limit how many records it kept and that limit.
type savedAs struct {
	path  string
	kept  int
	limit int64
}

// The spill texts of each tool (texts.json): where an over-cap result's rest is, and the note
// that ends a spill file cut at its limit.
var (
	globSpill = spillWords{tool: "glob"}
	grepSpill = spillWords{tool: "grep"}
)

type spillWords struct{ tool string }

// recovery is the sentence of an over-cap result that says where the rest is.
func (w spillWords) recovery(s savedAs, total int) string {
	switch {
	case s.path == "":
		return searchText.Text(w.tool + ".spill.unsaved")
	case s.kept > 0:
		return searchText.MustRender(w.tool+".spill.stored_first", "kept", strconv.Itoa(s.kept), "total", strconv.Itoa(total),
			"path", s.path, "limit", strconv.FormatInt(s.limit, 10))
	}
	return searchText.MustRender("search.spill.stored", "path", s.path)
}

// note ends a spill file cut at its limit.
func (w spillWords) note(kept, total int, limit int64) string {
	return "\n\n" + searchText.MustRender(w.tool+".spill.cut", "kept", strconv.Itoa(kept), "total", strconv.Itoa(total),
		"limit", strconv.FormatInt(limit, 10))
}

// noteRoom is the longest note of w under limit: the note rendered with the largest counts.
func (w spillWords) noteRoom(limit int64) int {
	return len(w.note(math.MaxInt, math.MaxInt, limit))
}

// longestRecovery is the longest recovery sentence of w for a spill path of pathLen bytes: each
// sentence rendered with the largest counts.
func (w spillWords) longestRecovery(pathLen int, limit int64) int {
	p := strings.Repeat("/", pathLen)
	return max(len(w.recovery(savedAs{}, 0)), len(w.recovery(savedAs{path: p}, 0)),
		len(w.recovery(savedAs{path: p, kept: math.MaxInt, limit: limit}, math.MaxInt)))
}

// countNote is "\n\n(<key>.one)" for n == 1 and "\n\n(<key>.many)", rendered with n, above; ""
// for 0.
func countNote(n int, key string) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "\n\n(" + searchText.Text(key+".one") + ")"
	}
	return "\n\n(" + searchText.MustRender(key+".many", "n", strconv.Itoa(n)) + ")"
}

// notes are the lines that end every output: skipped entries, partial ignore files, the visit limit.
func notes(skipped, partial, stoppedAfter int) string {
	return countNote(skipped, "search.skipped") + countNote(partial, "search.partial") + stopFooter(stoppedAfter)
}

// longestNotes is the longest notes(...) of a search whose visit limit is maxVisited.
func longestNotes(maxVisited int) int {
	return len(countNote(math.MaxInt, "search.skipped")) + len(countNote(math.MaxInt, "search.partial")) +
		len(stopFooter(maxVisited))
}

func stopFooter(stoppedAfter int) string {
	if stoppedAfter == 0 {
		return ""
	}
	return "\n\n" + searchText.MustRender("search.stopped", "n", strconv.Itoa(stoppedAfter))
}

// RenderGlob is the model-facing text of a glob.
func RenderGlob(v GlobValue) string {
	if v.Total == 0 {
		return noFiles + notes(v.Skipped, v.PartialIgnore, v.StoppedAfter)
	}
	return strings.Join(v.Paths, "\n") + globFooter(v) + notes(v.Skipped, v.PartialIgnore, v.StoppedAfter)
}

// globFooter is what follows the paths of an over-cap glob ("" for a whole result).
func globFooter(v GlobValue) string {
	if v.Total <= len(v.Paths) {
		return ""
	}
	values := []string{"shown", strconv.Itoa(len(v.Paths)), "total", strconv.Itoa(v.Total),
		"recovery", globSpill.recovery(savedAs{v.SpillPath, v.SpillKept, v.SpillLimit}, v.Total)}
	key := "glob.showing"
	if v.Sampled {
		key = "glob.showing.sampled"
		if v.EntriesShown < v.EntriesTotal {
			key = "glob.showing.sampled.narrow"
		}
		values = append(values, "entries_shown", strconv.Itoa(v.EntriesShown), "entries_total", strconv.Itoa(v.EntriesTotal))
	}
	return "\n\n" + searchText.MustRender(key, values...)
}

// RenderGrep is the model-facing text of a grep.
func RenderGrep(v GrepValue) string {
	if v.Total == 0 {
		return noMatches + notes(v.Skipped, v.PartialIgnore, v.StoppedAfter)
	}
	var b strings.Builder
	capped := v.Total > len(v.Matches)
	if capped {
		b.WriteString(foundCapped.RenderInts(len(v.Matches), v.Total))
	} else {
		b.WriteString(foundHeader(v.Total))
	}
	out := matchWriter{w: &b}
	for _, m := range v.Matches {
		writeMatch(&out, m.Path, m.Line, m.Text, m.Truncated, m.ValidUTF8)
	}
	if capped {
		b.WriteString("\n\n(" + grepSpill.recovery(savedAs{v.SpillPath, v.SpillKept, v.SpillLimit}, v.Total) + ")")
	}
	b.WriteString(notes(v.Skipped, v.PartialIgnore, v.StoppedAfter))
	return b.String()
}

func foundHeader(total int) string {
	if total == 1 {
		return searchText.Text("grep.found.one")
	}
	return foundMany.RenderInts(total)
}

// textWriter is what grep's text goes to: the inline text and the spill file.
type textWriter interface {
	io.Writer
	io.StringWriter
}

// counter is a textWriter that only counts.
type counter struct{ n int }

func (c *counter) Write(p []byte) (int, error)       { c.n += len(p); return len(p), nil }
func (c *counter) WriteString(s string) (int, error) { c.n += len(s); return len(s), nil }

// matchWriter writes grep's matches as text after its "Found …" header: "\n\n<path>" opening each
// file's group, then "\nLine <n>: <text>" a match. The inline text and the spill file both use it.
type matchWriter struct {
	w       textWriter
	path    string // the open group's, once opened
	started bool
}

// line opens path's group when it is not the open one, then starts line n.
func (m *matchWriter) line(path string, n int) {
	if !m.started || path != m.path {
		m.w.WriteString("\n\n")
		m.w.WriteString(path)
		m.path, m.started = path, true
	}
	m.w.WriteString("\nLine ")
	m.w.WriteString(strconv.Itoa(n))
	m.w.WriteString(": ")
}

// writeMatch writes one match: the kept text (a string inline, the lent bytes when spilling),
// then " (line truncated)"; a line that is not valid UTF-8 shows as "(line is not valid UTF-8)".
func writeMatch[T string | []byte](m *matchWriter, path string, n int, text T, truncated, valid bool) {
	m.line(path, n)
	if !valid {
		m.w.WriteString(invalidUTF8Line)
		return
	}
	switch t := any(text).(type) {
	case string:
		m.w.WriteString(t)
	case []byte:
		m.w.Write(t)
	}
	if truncated {
		m.w.WriteString(truncatedSuffix)
	}
}
