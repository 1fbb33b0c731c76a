package toolfssearch

import (
	"strconv"
	"strings"
)

// GlobValue is the canonical value of a glob: the paths shown inline (in display order), how many
// matched, how the page was chosen, where the complete list was saved ("" when it was not needed
// or could not be saved) and, when the walk stopped early, the entry limit (else 0).
type GlobValue struct {
	Paths        []string `json:"paths"`
	Total        int      `json:"total"`
	Sampled      bool     `json:"sampled"`
	EntriesShown int      `json:"entriesShown"`
	EntriesTotal int      `json:"entriesTotal"`
	SpillPath    string   `json:"spillPath"`
	StoppedAfter int      `json:"stoppedAfter"`
}

// GrepValue is the canonical value of a grep: the matches shown inline, how many lines matched in
// all, the spill file ("" when not needed or not saved) and the entry limit the walk stopped at (0).
type GrepValue struct {
	Matches      []GrepMatch `json:"matches"`
	Total        int         `json:"total"`
	SpillPath    string      `json:"spillPath"`
	StoppedAfter int         `json:"stoppedAfter"`
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

// The model-facing sentences.
const (
	noFiles          = "No files found"
	noMatches        = "No matches found"
	truncatedSuffix  = " (line truncated)"
	invalidUTF8Line  = "(line is not valid UTF-8)"
	narrowSubtree    = "Narrow path to inspect a specific subtree. "
	globUnsaved      = "The complete result could not be saved; narrow pattern or path to see more."
	grepUnsaved      = "The complete result could not be saved; narrow pattern, path, or include to see more."
	recoveryTemplate = "Full result stored at: %s. Use read with offset and limit on that path to see the rest."
)

func recovery(spillPath, unsaved string) string {
	if spillPath == "" {
		return unsaved
	}
	return strings.Replace(recoveryTemplate, "%s", spillPath, 1)
}

func stopFooter(stoppedAfter int) string {
	if stoppedAfter == 0 {
		return ""
	}
	return "\n\n(The search stopped after visiting " + strconv.Itoa(stoppedAfter) + " entries; narrow pattern or path.)"
}

// RenderGlob is the model-facing text of a glob.
func RenderGlob(v GlobValue) string {
	if v.Total == 0 {
		return noFiles + stopFooter(v.StoppedAfter)
	}
	var b strings.Builder
	b.WriteString(strings.Join(v.Paths, "\n"))
	if v.Total > len(v.Paths) {
		b.WriteString("\n\n(Showing " + strconv.Itoa(len(v.Paths)) + " of " + strconv.Itoa(v.Total) + " paths")
		if v.Sampled {
			b.WriteString(", sampled across " + strconv.Itoa(v.EntriesShown) + " of the " + strconv.Itoa(v.EntriesTotal) +
				" top-level entries this pattern matched instead of taken newest first. ")
			if v.EntriesShown < v.EntriesTotal {
				b.WriteString(narrowSubtree)
			}
		} else {
			b.WriteString(". ")
		}
		b.WriteString(recovery(v.SpillPath, globUnsaved) + ")")
	}
	b.WriteString(stopFooter(v.StoppedAfter))
	return b.String()
}

// lineText is how a matching line is shown.
func lineText(text string, truncated, valid bool) string {
	switch {
	case !valid:
		return invalidUTF8Line
	case truncated:
		return text + truncatedSuffix
	}
	return text
}

// RenderGrep is the model-facing text of a grep.
func RenderGrep(v GrepValue) string {
	if v.Total == 0 {
		return noMatches + stopFooter(v.StoppedAfter)
	}
	var b strings.Builder
	capped := v.Total > len(v.Matches)
	if capped {
		b.WriteString("Found " + strconv.Itoa(len(v.Matches)) + " of " + strconv.Itoa(v.Total) + " matches")
	} else {
		b.WriteString(foundHeader(v.Total))
	}
	last := ""
	for i, m := range v.Matches {
		if i == 0 || m.Path != last {
			b.WriteString("\n\n" + m.Path)
			last = m.Path
		}
		b.WriteString("\nLine " + strconv.Itoa(m.Line) + ": " + lineText(m.Text, m.Truncated, m.ValidUTF8))
	}
	if capped {
		b.WriteString("\n\n(" + recovery(v.SpillPath, grepUnsaved) + ")")
	}
	b.WriteString(stopFooter(v.StoppedAfter))
	return b.String()
}

func foundHeader(total int) string {
	if total == 1 {
		return "Found 1 match"
	}
	return "Found " + strconv.Itoa(total) + " matches"
}
