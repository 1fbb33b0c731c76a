package mcphost

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/internal/termtext"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The bounds of the approval prompt, in bytes of the rendered text.
const (
	promptNameMax    = 64  // the tool name, the modes
	promptPathMax    = 512 // each path, cut in the middle
	promptTextMax    = 400 // the justification, the reason
	promptLabelMax   = 64  // a preview's label
	promptPreviewMax = 800 // the lines of one preview, together
	promptLinesMax   = 10  // the lines of one preview
	previewIndent    = "  | "
	// A call that changes several files (apply_patch): the files listed, and
	// the budget of their previews together, each file's share at most one
	// preview's bounds.
	promptFilesMax      = 50
	promptFilesBytesMax = 2400
	promptFilesLinesMax = 30
)

// ApprovalPrompt is the text a person is asked to approve req with, the same
// on every channel (an MCP elicitation, a log line):
//
//	Allow the "<tool>" tool call?
//	Path: <path>
//	Resolves to: <resolved path>
//	Mode: <mode> (now <current mode>)
//	Justification: <justification>
//	<label>: <n> bytes, <m> lines
//	  | <line>
//	  [cut: <n> more bytes, <m> more lines]
//
// Without Details it is `Allow the "<tool>" tool call? <reason>`. Each field
// is cut to a bound (paths keep both ends, previews at most 10 lines and 800
// bytes) with the cut marked, and every character that could change how the
// text reads (control and format characters, ANSI escapes, bidirectional
// overrides, line separators, invalid UTF-8) is shown as an escape such as
// \x1b or \u202e, so the model cannot forge a line of the prompt. A
// backslash is shown as itself.
func ApprovalPrompt(req tools.ApprovalRequest) string {
	var b strings.Builder
	b.WriteString(`Allow the "` + cutEnd(req.ToolName, promptNameMax) + `" tool call?`)
	d := req.Details
	if d == nil {
		if req.Reason != "" {
			b.WriteString(" " + cutEnd(req.Reason, promptTextMax))
		}
		return b.String()
	}
	field := func(label, value string) {
		if value != "" {
			b.WriteString("\n" + label + ": " + value)
		}
	}
	field("Path", cutMiddle(d.Path, promptPathMax))
	field("Resolves to", cutMiddle(d.ResolvedPath, promptPathMax))
	mode := cutEnd(d.Mode, promptNameMax)
	if mode != "" && d.CurrentMode != "" {
		mode += " (now " + cutEnd(d.CurrentMode, promptNameMax) + ")"
	}
	field("Mode", mode)
	field("Justification", cutEnd(d.Justification, promptTextMax))
	for _, p := range d.Previews {
		writePreview(&b, p, promptPreviewMax, promptLinesMax)
	}
	writeFiles(&b, d.Files)
	return b.String()
}

// markRank orders the files of a prompt: protected, outside, unverified, then the rest.
var markRank = map[string]int{tools.MarkProtected: 0, tools.MarkOutside: 1, tools.MarkUnverified: 2, "": 3}

// writeFiles lists every file of a call that changes several (docs/sandbox.md "The approval
// prompt"): a count, then one numbered line per file with its operation and path(s), the marked
// files first and marked with "!", at most promptFilesMax lines and a count of the rest; then each
// listed file's preview under "File <n>", sharing promptFilesBytesMax bytes and
// promptFilesLinesMax lines (each file its share rounded up, at most a preview's bounds, what one
// leaves over going to the next), every cut counted.
func writeFiles(b *strings.Builder, files []tools.ApprovalFile) {
	if len(files) == 0 {
		return
	}
	order := make([]tools.ApprovalFile, len(files))
	copy(order, files)
	sort.SliceStable(order, func(i, j int) bool { return rank(order[i].Mark) < rank(order[j].Mark) })
	marked := 0
	for _, f := range order {
		if f.Mark != "" {
			marked++
		}
	}
	b.WriteString("\nFiles: " + strconv.Itoa(len(order)))
	if marked > 0 {
		b.WriteString(" (" + strconv.Itoa(marked) + " marked !: protected, outside the writable roots, or unverified)")
	}
	shown := order[:min(len(order), promptFilesMax)]
	for i, f := range shown {
		b.WriteString("\n  " + strconv.Itoa(i+1) + ". ")
		if f.Mark != "" {
			b.WriteString("! " + cutEnd(f.Mark, promptNameMax) + ": ")
		}
		b.WriteString(cutEnd(f.Op, promptNameMax) + " " + cutMiddle(f.Path, promptPathMax))
		if f.MoveTo != "" {
			b.WriteString(" -> " + cutMiddle(f.MoveTo, promptPathMax))
		}
		if f.ResolvedPath != "" {
			b.WriteString(" (resolves to " + cutMiddle(f.ResolvedPath, promptPathMax) + ")")
		}
	}
	if rest := order[len(shown):]; len(rest) > 0 {
		more := 0
		for _, f := range rest {
			if f.Mark != "" {
				more++
			}
		}
		b.WriteString("\n  [cut: " + plural(len(rest), "more file") + ", " + strconv.Itoa(more) + " of them marked]")
	}
	bytesLeft, linesLeft := promptFilesBytesMax, promptFilesLinesMax
	for i, f := range shown {
		if f.Preview == "" {
			continue
		}
		left := 0
		for _, g := range shown[i:] {
			if g.Preview != "" {
				left++
			}
		}
		usedBytes, usedLines := writePreview(b, tools.ApprovalPreview{Label: "File " + strconv.Itoa(i+1), Text: f.Preview},
			min(promptPreviewMax, ceilDiv(bytesLeft, left)), min(promptLinesMax, ceilDiv(linesLeft, left)))
		bytesLeft, linesLeft = bytesLeft-usedBytes, linesLeft-usedLines
	}
}

// ceilDiv is a share of n among k, rounded up so the first files are shown before the last.
func ceilDiv(n, k int) int { return (n + k - 1) / k }

func rank(mark string) int {
	if r, ok := markRank[mark]; ok {
		return r
	}
	return 0 // an unknown mark is shown first
}

// writePreview writes the header of p (its size) and its first lines, cut to
// maxLines lines and maxBytes rendered bytes, and returns the bytes and lines
// of p's text it wrote.
func writePreview(b *strings.Builder, p tools.ApprovalPreview, maxBytes, maxLines int) (int, int) {
	lines := strings.SplitAfter(p.Text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	b.WriteString("\n" + cutEnd(p.Label, promptLabelMax) + ": " + plural(len(p.Text), "byte"))
	if len(lines) > 0 {
		b.WriteString(", " + plural(len(lines), "line"))
	}
	budget, shown, written := maxBytes, 0, 0
	for i, line := range lines {
		if i >= maxLines || budget <= 0 {
			break
		}
		text, used := neutralPrefix(strings.TrimSuffix(line, "\n"), budget)
		b.WriteString("\n" + previewIndent + text)
		budget -= len(text)
		written++
		if used < len(strings.TrimSuffix(line, "\n")) {
			shown += used
			break
		}
		shown += len(line)
	}
	if rest := len(p.Text) - shown; rest > 0 {
		started := strings.Count(p.Text[:shown], "\n")
		if shown > 0 && !strings.HasSuffix(p.Text[:shown], "\n") {
			started++
		}
		b.WriteString("\n  [cut: " + plural(rest, "more byte"))
		if more := len(lines) - started; more > 0 {
			b.WriteString(", " + plural(more, "more line"))
		}
		b.WriteString("]")
	}
	return maxBytes - budget, written
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// cutEnd is s neutralised and cut to max rendered bytes, the cut marked.
func cutEnd(s string, max int) string {
	text, used := neutralPrefix(s, max)
	if used < len(s) {
		text += fmt.Sprintf("[cut: %d more bytes]", len(s)-used)
	}
	return text
}

// cutMiddle is s neutralised; when longer than max rendered bytes, its first
// and last max/2 are kept around a mark of the cut.
func cutMiddle(s string, max int) string {
	if text, _ := neutralPrefix(s, math.MaxInt); len(text) <= max {
		return text
	}
	head, used := neutralPrefix(s, max/2)
	tail, from := neutralSuffix(s[used:], max/2)
	return head + fmt.Sprintf("[cut: %d bytes]", from) + tail
}

// neutralPrefix renders the longest prefix of s that fits in max bytes once
// neutralised, and returns it with the number of bytes of s it covers.
func neutralPrefix(s string, max int) (string, int) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		esc, size := neutralRune(s[i:])
		if b.Len()+len(esc) > max {
			break
		}
		b.WriteString(esc)
		i += size
	}
	return b.String(), i
}

// neutralSuffix renders the longest suffix of s that fits in max bytes once
// neutralised, and returns it with the offset in s where it starts.
func neutralSuffix(s string, max int) (string, int) {
	var parts []string
	n, j := 0, len(s)
	for j > 0 {
		start := j - 1
		for start > 0 && j-start < utf8.UTFMax && !utf8.RuneStart(s[start]) {
			start--
		}
		esc, size := neutralRune(s[start:j])
		if size != j-start { // not one rune: an invalid byte at the end
			start = j - 1
			esc, _ = neutralRune(s[start:j])
		}
		if n+len(esc) > max {
			break
		}
		parts = append(parts, esc)
		n += len(esc)
		j = start
	}
	var b strings.Builder
	for k := len(parts) - 1; k >= 0; k-- {
		b.WriteString(parts[k])
	}
	return b.String(), j
}

// neutralRune is the rule of internal/termtext.
func neutralRune(s string) (string, int) { return termtext.Rune(s) }
