package patch

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/cordon-dev/cordon/internal/textedit"
)

// ApplyError is an update whose chunk could not be located. Chunk is its 0-based index;
// Context is set when the chunk's @@ header was not found, Expected otherwise (the lines that
// were sought).
type ApplyError struct {
	Chunk      int
	Line       int // the chunk's line in the patch
	Context    string
	HasContext bool
	Expected   []string
}

func (e *ApplyError) Error() string {
	if e.HasContext {
		return "failed to find context '" + e.Context + "'"
	}
	return "failed to find expected lines:\n" + strings.Join(e.Expected, "\n")
}

// replacement replaces old lines at start with lines.
type replacement struct {
	start, old int
	lines      []string
}

// line is one line of a file: its text and the break that ends it ("\n", "\r\n" or "" for a last
// line without one).
type line struct {
	text, end string
}

// split cuts raw (a file's text after its BOM) into lines; a CR is part of a line's break only
// right before its LF, so each text equals the line of the LF-normalized content.
func split(raw string) []line {
	var out []line
	for raw != "" {
		i := strings.IndexByte(raw, '\n')
		if i < 0 {
			out = append(out, line{text: raw})
			break
		}
		l := line{text: raw[:i], end: "\n"}
		if i > 0 && raw[i-1] == '\r' {
			l.text, l.end = raw[:i-1], "\r\n"
		}
		out = append(out, l)
		raw = raw[i+1:]
	}
	return out
}

// Apply applies the chunks of an Update to raw, the file's text after its BOM, and returns the
// new text. Chunks are located in order, each after the previous one (see seek); a chunk with no
// old lines appends at the end of the file. Lines outside the chunks keep their bytes and breaks;
// every new line ends with the file's dominant line break (textedit.DetectLineEndings), and a line
// that had no break gains one when a line now follows it. When ctx is done while chunks are
// being located, the error is ctx's.
func Apply(ctx context.Context, raw string, chunks []Chunk) (string, error) {
	lines := split(raw)
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.text
	}
	reps, err := locate(&seeker{ctx: ctx, lines: texts}, chunks)
	if err != nil {
		return "", err
	}
	nl := "\n"
	if textedit.DetectLineEndings(raw) == textedit.CRLF {
		nl = "\r\n"
	}
	var b strings.Builder
	b.Grow(len(raw) + 64)
	pending := false // the last line written has no break yet
	write := func(text, end string) {
		if pending {
			b.WriteString(nl)
		}
		b.WriteString(text)
		b.WriteString(end)
		pending = end == ""
	}
	at := 0
	for _, r := range reps {
		for ; at < r.start; at++ {
			write(lines[at].text, lines[at].end)
		}
		for _, t := range r.lines {
			write(t, nl)
		}
		at = max(at, r.start+r.old)
	}
	for ; at < len(lines); at++ {
		write(lines[at].text, lines[at].end)
	}
	return b.String(), nil
}

// locate finds each chunk in lines (Codex's rules, see seek) and returns the replacements in file
// order.
func locate(s *seeker, chunks []Chunk) ([]replacement, error) {
	lines := s.lines
	var reps []replacement
	at := 0
	for i, c := range chunks {
		if c.HasContext {
			j, err := s.seek([]string{c.Context}, at, false)
			if err != nil {
				return nil, err
			}
			if j < 0 {
				return nil, &ApplyError{Chunk: i, Line: c.Line, Context: c.Context, HasContext: true}
			}
			at = j + 1
		}
		if len(c.Old) == 0 {
			end := len(lines)
			if end > 0 && lines[end-1] == "" {
				end--
			}
			reps = append(reps, replacement{start: end, lines: c.New})
			continue
		}
		old, repl := c.Old, c.New
		j, err := s.seek(old, at, c.EOF)
		if err != nil {
			return nil, err
		}
		if j < 0 && old[len(old)-1] == "" {
			// The last old line stands for the file's final line break.
			old = old[:len(old)-1]
			if len(repl) > 0 && repl[len(repl)-1] == "" {
				repl = repl[:len(repl)-1]
			}
			if j, err = s.seek(old, at, c.EOF); err != nil {
				return nil, err
			}
		}
		if j < 0 {
			return nil, &ApplyError{Chunk: i, Line: c.Line, Expected: c.Old}
		}
		reps = append(reps, replacement{start: j, old: len(old), lines: repl})
		at = j + len(old)
	}
	slices.SortStableFunc(reps, func(a, b replacement) int { return cmp.Compare(a.start, b.start) })
	return reps, nil
}
