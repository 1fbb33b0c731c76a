package toolfs

import (
	"encoding/binary"
	"strconv"
	"unsafe"
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
	// Elsewhere are the lines that had changed since the read outside the edit (staleness region).
	Elsewhere []LineRange `json:"changedElsewhere,omitempty"`
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

	size := len(v.Path) + len(footer) + 64
	for _, l := range v.Lines {
		size += len(l.Text) + len(": \n")
	}
	if n := len(v.Lines); n > 0 {
		size += n * len(strconv.Itoa(v.Lines[n-1].Number)) // the widest number of a window
	}
	b := make([]byte, 0, size)
	b = append(b, "<path>"...)
	b = append(b, v.Path...)
	b = append(b, "</path>\n<type>file</type>\n<content>\n"...)
	var num counter
	for _, l := range v.Lines {
		b = num.append(b, l.Number)
		b = append(append(b, l.Text...), '\n')
	}
	if len(v.Lines) > 0 {
		b = append(b, '\n')
	}
	b = append(b, footer...)
	b = append(b, "\n</content>"...)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
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

// counter spells line numbers in decimal, each followed by ": ". While the numbers are below a
// million, the spelling is kept as one little-endian word and the next number is an increment of
// its last digit (a window's lines are consecutive); a carry, or any other number, is formatted
// afresh.
type counter struct {
	n    int
	word uint64 // n's digits and ": ", byte by byte, when size > 0
	size int    // their length, at most 8; 0 when n is negative or not spelled in word
}

// append appends the digits of n and ": " to b.
func (c *counter) append(b []byte, n int) []byte {
	if c.size > 0 && n == c.n+1 {
		if last := uint(c.size-3) * 8; byte(c.word>>last) != '9' {
			c.n = n
			c.word += 1 << last
			b = binary.LittleEndian.AppendUint64(b, c.word)
			return b[:len(b)-8+c.size] // the bytes past ": " are spare capacity
		}
	}
	var tmp [24]byte
	d := append(strconv.AppendInt(tmp[:0], int64(n), 10), ':', ' ')
	c.n, c.size = n, 0
	if n >= 0 && len(d) <= 8 {
		c.word, c.size = binary.LittleEndian.Uint64(tmp[:8]), len(d)
	}
	return append(b, d...)
}
