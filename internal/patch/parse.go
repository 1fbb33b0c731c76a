package patch

import (
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/echo"
)

// The markers of the format. A marker line may carry surrounding whitespace.
const (
	beginMarker      = "*** Begin Patch"
	endMarker        = "*** End Patch"
	addMarker        = "*** Add File: "
	deleteMarker     = "*** Delete File: "
	updateMarker     = "*** Update File: "
	moveMarker       = "*** Move to: "
	eofMarker        = "*** End of File"
	contextMarker    = "@@ "
	emptyContextMark = "@@"
)

// Kind is what a file operation does.
type Kind int

// The file operations.
const (
	Add Kind = iota
	Delete
	Update
)

// Op is one file operation of a patch. Path (and MoveTo) are as written in the patch.
type Op struct {
	Kind   Kind
	Path   string
	MoveTo string   // Update only; "" = no move
	Lines  []string // Add only: the new file's lines, each to be ended by a line break
	Chunks []Chunk  // Update only, at least one
	Line   int      // 1-based line of the operation's header in the patch
}

// Chunk is one "@@" section of an Update: Old must be found in the file (after Context, when
// set) and is replaced by New.
type Chunk struct {
	Context    string
	HasContext bool
	Old, New   []string
	EOF        bool // "*** End of File": Old is sought at the end of the file first
	Line       int  // 1-based line of the chunk's first line in the patch
}

// Patch is a parsed patch.
type Patch struct {
	Ops []Op
}

// ParseError is a patch that does not follow the format. Line is 0 for an error of the whole
// patch (its first or last line).
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return "invalid patch: line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// Parse parses a whole patch. Like Codex, it trims the text, splits it into lines (a CR before a
// line break is dropped), accepts marker lines with surrounding whitespace and a patch wrapped in
// a <<EOF heredoc, and skips blank lines between chunks. A patch with no operation parses.
func Parse(text string) (Patch, error) {
	lines := splitLines(strings.TrimSpace(text))
	body, err := boundaries(lines)
	if err != nil {
		if len(lines) >= 4 && isHeredoc(lines[0]) && strings.HasSuffix(lines[len(lines)-1], "EOF") {
			if inner, ierr := boundaries(lines[1 : len(lines)-1]); ierr == nil {
				return parseOps(inner, 3)
			}
		}
		return Patch{}, err
	}
	return parseOps(body, 2)
}

func isHeredoc(l string) bool { return l == "<<EOF" || l == "<<'EOF'" || l == `<<"EOF"` }

// splitLines splits s at "\n", dropping one "\r" before each break (Rust's str::lines).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// boundaries checks the first and last lines and returns the lines between them.
func boundaries(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginMarker {
		return nil, &ParseError{Msg: "the first line of the patch must be '" + beginMarker + "'"}
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != endMarker {
		return nil, &ParseError{Msg: "the last line of the patch must be '" + endMarker + "'"}
	}
	return lines[1 : len(lines)-1], nil
}

// parseOps parses the operations of body, whose first line is line first of the patch.
func parseOps(body []string, first int) (Patch, error) {
	var p Patch
	line := first
	for len(body) > 0 {
		op, n, err := parseOp(body, line)
		if err != nil {
			return Patch{}, err
		}
		p.Ops = append(p.Ops, op)
		body, line = body[n:], line+n
	}
	return p, nil
}

// parseOp parses the operation starting at lines[0] (patch line at) and returns how many lines
// it took.
func parseOp(lines []string, at int) (Op, int, error) {
	head := strings.TrimSpace(lines[0])
	if path, ok := strings.CutPrefix(head, addMarker); ok {
		op := Op{Kind: Add, Path: path, Line: at}
		n := 1
		for _, l := range lines[1:] {
			rest, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			op.Lines = append(op.Lines, rest)
			n++
		}
		return op, n, nil
	}
	if path, ok := strings.CutPrefix(head, deleteMarker); ok {
		return Op{Kind: Delete, Path: path, Line: at}, 1, nil
	}
	path, ok := strings.CutPrefix(head, updateMarker)
	if !ok {
		return Op{}, 0, &ParseError{Line: at, Msg: "'" + echoed(head) + "' is not a valid file header; valid headers are '*** Add File: <path>', '*** Delete File: <path>' and '*** Update File: <path>'"}
	}
	op := Op{Kind: Update, Path: path, Line: at}
	n := 1
	if len(lines) > 1 {
		if dest, ok := strings.CutPrefix(lines[1], moveMarker); ok {
			if strings.TrimSpace(dest) == "" {
				return Op{}, 0, &ParseError{Line: at + 1, Msg: "the Move to line for '" + path + "' names no destination"}
			}
			op.MoveTo = dest
			n++
		}
	}
	for n < len(lines) {
		l := lines[n]
		if strings.TrimSpace(l) == "" {
			n++ // blank lines between chunks
			continue
		}
		if strings.HasPrefix(l, "*") {
			break
		}
		c, used, err := parseChunk(lines[n:], at+n, len(op.Chunks) == 0)
		if err != nil {
			return Op{}, 0, err
		}
		op.Chunks = append(op.Chunks, c)
		n += used
	}
	if len(op.Chunks) == 0 {
		return Op{}, 0, &ParseError{Line: at, Msg: "the Update File section for '" + echoed(path) + "' has no @@ chunk"}
	}
	return op, n, nil
}

// parseChunk parses one chunk starting at lines[0] (patch line at). The first chunk of a file may
// omit its "@@" line.
func parseChunk(lines []string, at int, first bool) (Chunk, int, error) {
	c := Chunk{Line: at}
	start := 0
	switch {
	case lines[0] == emptyContextMark:
		start = 1
	case strings.HasPrefix(lines[0], contextMarker):
		c.Context, c.HasContext, start = lines[0][len(contextMarker):], true, 1
	case !first:
		return Chunk{}, 0, &ParseError{Line: at, Msg: "expected a chunk to start with a @@ line, got '" + echoed(lines[0]) + "'"}
	}
	if start >= len(lines) {
		return Chunk{}, 0, &ParseError{Line: at + 1, Msg: "the chunk has no lines"}
	}
	n := 0
	for _, l := range lines[start:] {
		if l == eofMarker {
			if n == 0 {
				return Chunk{}, 0, &ParseError{Line: at + start, Msg: "the chunk has no lines"}
			}
			c.EOF = true
			n++
			break
		}
		if l == "" {
			c.Old, c.New = append(c.Old, ""), append(c.New, "")
			n++
			continue
		}
		switch l[0] {
		case ' ':
			c.Old, c.New = append(c.Old, l[1:]), append(c.New, l[1:])
		case '+':
			c.New = append(c.New, l[1:])
		case '-':
			c.Old = append(c.Old, l[1:])
		default:
			if n == 0 {
				return Chunk{}, 0, &ParseError{Line: at + start, Msg: "unexpected line in a chunk: '" + echoed(l) + "'; every line must start with ' ' (context), '+' (added) or '-' (removed)"}
			}
			return c, n + start, nil // the next chunk starts here
		}
		n++
	}
	return c, n + start, nil
}

// echoed is a line of the patch as an error repeats it: at most echo.MaxBytes, the cut marked.
func echoed(s string) string { return echo.String(s, echo.MaxBytes) }

// Text returns the content of an Add: each line followed by "\n".
func (op Op) Text() string {
	if len(op.Lines) == 0 {
		return ""
	}
	return strings.Join(op.Lines, "\n") + "\n"
}
