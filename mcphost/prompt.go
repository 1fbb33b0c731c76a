package mcphost

import (
	"fmt"
	"math"
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
		writePreview(&b, p)
	}
	return b.String()
}

// writePreview writes the header of p (its size) and its first lines, cut to
// promptLinesMax lines and promptPreviewMax rendered bytes.
func writePreview(b *strings.Builder, p tools.ApprovalPreview) {
	lines := strings.SplitAfter(p.Text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	b.WriteString("\n" + cutEnd(p.Label, promptLabelMax) + ": " + plural(len(p.Text), "byte"))
	if len(lines) > 0 {
		b.WriteString(", " + plural(len(lines), "line"))
	}
	budget, shown := promptPreviewMax, 0
	for i, line := range lines {
		if i == promptLinesMax || budget == 0 {
			break
		}
		text, used := neutralPrefix(strings.TrimSuffix(line, "\n"), budget)
		b.WriteString("\n" + previewIndent + text)
		budget -= len(text)
		if used < len(strings.TrimSuffix(line, "\n")) {
			shown += used
			break
		}
		shown += len(line)
	}
	if rest := len(p.Text) - shown; rest > 0 {
		started := strings.Count(p.Text[:shown], "\n")
		if shown < len(p.Text) && !strings.HasSuffix(p.Text[:shown], "\n") {
			started++
		}
		b.WriteString("\n  [cut: " + plural(rest, "more byte"))
		if more := len(lines) - started; more > 0 {
			b.WriteString(", " + plural(more, "more line"))
		}
		b.WriteString("]")
	}
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
