package toolfs

import (
	"strconv"
	"strings"
)

// ReadValue is the canonical value of a successful read: the target's display path, the requested
// offset, the selected lines and the exact line count of the file.
type ReadValue struct {
	Path       string `json:"path"`
	Offset     int    `json:"offset"`
	Lines      []Line `json:"lines"`
	TotalLines int    `json:"totalLines"`
}

// WriteValue is the canonical value of a successful write. Before is nil when the file was created
// or the backend declined a diff basis; After is nil when the content is at or above the diff
// basis bound (a result never carries a huge file again); both are LF-normalized.
type WriteValue struct {
	Path      string  `json:"path"`
	Operation string  `json:"operation"`
	Before    *string `json:"before"`
	After     *string `json:"after"`
}

// EditValue is the canonical value of a successful edit; Before and After are LF-normalized, and
// both nil when either is at or above the diff basis bound.
type EditValue struct {
	Path   string  `json:"path"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// readFooter returns the footer line of a read window.
func readFooter(offset, endLine, totalLines int, truncatedByBytes bool) string {
	switch {
	case truncatedByBytes:
		return "(Output capped. Showing lines " + strconv.Itoa(offset) + "-" + strconv.Itoa(endLine) +
			". Use offset=" + strconv.Itoa(endLine+1) + " to continue.)"
	case endLine < totalLines:
		return "(Showing lines " + strconv.Itoa(offset) + "-" + strconv.Itoa(endLine) + " of " +
			strconv.Itoa(totalLines) + ". Use offset=" + strconv.Itoa(endLine+1) + " to continue.)"
	default:
		return "(End of file - total " + strconv.Itoa(totalLines) + " lines)"
	}
}

// endLineOf is the number of the last selected line, or max(0, offset-1) when none is selected.
func endLineOf(v ReadValue) int {
	if n := len(v.Lines); n > 0 {
		return v.Lines[n-1].Number
	}
	return max(0, v.Offset-1)
}

// RenderRead renders the model-facing text of a read. limit is the validated request limit: the
// canonical value does not carry the byte-cap flag, so it is re-derived as
// `len(lines) < limit && endLine < totalLines`, which is equivalent to the window's flag.
func RenderRead(v ReadValue, limit int) string {
	endLine := endLineOf(v)
	capped := len(v.Lines) < limit && endLine < v.TotalLines
	footer := readFooter(v.Offset, endLine, v.TotalLines, capped)

	var b strings.Builder
	size := len(v.Path) + len(footer) + 64
	if n := len(v.Lines); n > 0 {
		size += n * (len(strconv.Itoa(v.Lines[n-1].Number)) + len(": \n")) // the widest number, at most
	}
	for _, l := range v.Lines {
		size += len(l.Text)
	}
	b.Grow(size)
	b.WriteString("<path>")
	b.WriteString(v.Path)
	b.WriteString("</path>\n<type>file</type>\n<content>\n")
	var num counter
	for _, l := range v.Lines {
		b.Write(num.at(l.Number))
		b.WriteString(": ")
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	if len(v.Lines) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(footer)
	b.WriteString("\n</content>")
	return b.String()
}

// RenderWrite renders the model-facing text of a write: the envelope with "Created file" or
// "Updated file"; the content is never echoed.
func RenderWrite(v WriteValue) string {
	verb := "Updated"
	if v.Operation == "create" {
		verb = "Created"
	}
	return "<path>" + v.Path + "</path>\n<type>file</type>\n<content>\n" + verb + " file\n</content>"
}

// RenderEdit renders the model-facing sentence of an edit.
func RenderEdit(v EditValue, replaceAll bool) string {
	if replaceAll {
		return "The file " + v.Path + " has been updated. All occurrences were successfully replaced."
	}
	return "The file " + v.Path + " has been updated successfully."
}

// counter spells line numbers in decimal; the next number is an increment of the last one's digits
// (a window's lines are consecutive), any other is formatted afresh.
type counter struct {
	n      int
	digits [20]byte
	start  int  // digits[start:] spell n
	inc    bool // n can be incremented in place (positive, with room for a carry)
}

// at returns the digits of n, valid until the next call.
func (c *counter) at(n int) []byte {
	if c.inc && n == c.n+1 {
		c.n = n
		i := len(c.digits) - 1
		for ; i >= c.start && c.digits[i] == '9'; i-- {
			c.digits[i] = '0'
		}
		if i < c.start {
			c.start--
			i = c.start
			c.digits[i] = '0'
		}
		c.digits[i]++
		c.inc = c.start > 0
		return c.digits[c.start:]
	}
	var tmp [20]byte
	d := strconv.AppendInt(tmp[:0], int64(n), 10)
	c.n, c.start = n, len(c.digits)-len(d)
	copy(c.digits[c.start:], d)
	c.inc = n >= 0 && c.start > 0
	return c.digits[c.start:]
}
