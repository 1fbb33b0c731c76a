package notebook

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The bounds of one output's text in a cell's view (docs/notebooks.md "Outputs").
const (
	OutputMaxLines = 30
	OutputMaxBytes = 2000
)

// RenderOptions are what a cell's view depends on beyond the cell.
type RenderOptions struct {
	// MaxLineLength is the code points kept of a line before the truncation suffix (0: no limit).
	MaxLineLength int
	// SourceLines, when > 0, shows only that many source lines, and no outputs.
	SourceLines int
	// Image returns the line shown for the k-th image (0-based, over the cell) of the cell; nil
	// shows "[<type> image not shown]".
	Image func(k int, img Image) string
}

// RenderCell appends the view of cell i (docs/notebooks.md "The text the model sees"):
//
//	<cell id="<id>" type="<type>"[ execution_count="<n>"]>
//	<number>: <source line>
//	<output type="<output_type>"[ name="<stream>"][ ename="<ename>"]>
//	<text>
//	</output>
//	</cell>
//
// followed by a newline.
func RenderCell(b []byte, nb *Notebook, i int, opt RenderOptions) []byte {
	c := nb.Cells[i]
	b = append(b, `<cell id="`...)
	b = append(b, nb.DisplayID(i)...)
	b = append(b, `" type="`...)
	b = append(b, c.Type...)
	b = append(b, '"')
	if c.Type == TypeCode && c.ExecutionCount != "" {
		b = append(b, ` execution_count="`...)
		b = append(b, c.ExecutionCount...)
		b = append(b, '"')
	}
	b = append(b, ">\n"...)
	lines := SourceLines(c.Source)
	shown := lines
	if opt.SourceLines > 0 && opt.SourceLines < len(lines) {
		shown = lines[:opt.SourceLines]
	}
	for n, l := range shown {
		b = strconv.AppendInt(b, int64(n+1), 10)
		b = append(b, ": "...)
		b = appendLine(b, l, opt.MaxLineLength)
		b = append(b, '\n')
	}
	if opt.SourceLines > 0 {
		b = append(b, "(cell cut to fit the result: source lines 1-"...)
		b = strconv.AppendInt(b, int64(len(shown)), 10)
		b = append(b, " of "...)
		b = strconv.AppendInt(b, int64(len(lines)), 10)
		b = append(b, " shown, outputs left out)\n"...)
		return append(b, "</cell>\n"...)
	}
	k := 0
	for _, o := range c.Outputs {
		b = append(b, `<output type="`...)
		b = append(b, o.Type...)
		b = append(b, '"')
		if o.Name != "" {
			b = append(b, ` name="`...)
			b = append(b, o.Name...)
			b = append(b, '"')
		}
		if o.EName != "" {
			b = append(b, ` ename="`...)
			b = append(b, o.EName...)
			b = append(b, '"')
		}
		b = append(b, ">\n"...)
		for _, img := range o.Images {
			line := "[" + img.MediaType + " image not shown]"
			if opt.Image != nil {
				line = opt.Image(k, img)
			}
			k++
			b = append(b, line...)
			b = append(b, '\n')
		}
		switch {
		case o.Type == "error":
			tb := o.Traceback
			if len(tb) == 0 {
				tb = []string{o.EName + ": " + o.EValue}
			}
			b = appendBounded(b, strings.Join(tb, "\n"), opt.MaxLineLength, true)
		case o.Text != "":
			b = appendBounded(b, o.Text, opt.MaxLineLength, false)
		case len(o.Images) == 0 && len(o.Other) > 0:
			b = append(b, "["...)
			b = append(b, strings.Join(o.Other, ", ")...)
			b = append(b, " output not shown]\n"...)
		}
		b = append(b, "</output>\n"...)
	}
	return append(b, "</cell>\n"...)
}

// SourceLines splits a cell's source into the lines read numbers: at "\n", a final "\n"
// starting no line; "" has none.
func SourceLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// appendLine appends l, cut to max code points with read's suffix when longer.
func appendLine(b []byte, l string, max int) []byte {
	if max <= 0 || utf8.RuneCountInString(l) <= max {
		return append(b, l...)
	}
	n := 0
	for i := range l {
		if n == max {
			b = append(b, l[:i]...)
			break
		}
		n++
	}
	b = append(b, "... (line truncated to "...)
	b = strconv.AppendInt(b, int64(max), 10)
	return append(b, " chars)"...)
}

// appendBounded appends an output's text as a terminal would show it (ANSI escapes removed, a
// line keeping what follows its last carriage return), each line ended by "\n", bounded to
// OutputMaxLines lines and OutputMaxBytes bytes: the first ones, or the last ones when tail
// (a traceback ends with the error), with a line saying how many were left out.
func appendBounded(b []byte, text string, maxLine int, tail bool) []byte {
	lines := strings.Split(strings.TrimSuffix(StripANSI(text), "\n"), "\n")
	for i, l := range lines {
		if j := strings.LastIndexByte(strings.TrimSuffix(l, "\r"), '\r'); j >= 0 {
			l = l[j+1:]
		}
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	keep, size := 0, 0
	for keep < len(lines) && keep < OutputMaxLines {
		l := lines[keep]
		if tail {
			l = lines[len(lines)-1-keep]
		}
		n := len(l) + 1
		if maxLine > 0 && utf8.RuneCountInString(l) > maxLine {
			n = maxLine*4 + 40
		}
		if keep > 0 && size+n > OutputMaxBytes {
			break
		}
		size += n
		keep++
	}
	left := len(lines) - keep
	if tail {
		if left > 0 {
			b = append(b, "... ("...)
			b = strconv.AppendInt(b, int64(left), 10)
			b = append(b, " earlier lines not shown)\n"...)
		}
		lines = lines[left:]
	} else {
		lines = lines[:keep]
	}
	for _, l := range lines {
		b = appendLine(b, l, maxLine)
		b = append(b, '\n')
	}
	if !tail && left > 0 {
		b = append(b, "... ("...)
		b = strconv.AppendInt(b, int64(left), 10)
		b = append(b, " more lines not shown)\n"...)
	}
	return b
}

// StripANSI removes terminal escape sequences: CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or
// ESC \) and any other two-byte ESC sequence.
func StripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0x1b {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch s[i+1] {
		case '[':
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j + 1
		case ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j + 1
		default:
			i += 2
		}
	}
	return b.String()
}
