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
	// Charset names the charset the file was decoded from when it is not UTF-8 (charset.go).
	Charset string `json:"charset,omitempty"`
	// Notebook is the page of cells of a notebook read (docs/notebooks.md); Lines is then empty.
	Notebook *NotebookPage `json:"notebook,omitempty"`
	// Note says why a .ipynb file is shown as text (docs/notebooks.md).
	Note string `json:"note,omitempty"`

	images [][]byte // the stored bytes of a notebook page's images, for Render
	text   string   // the rendered text, when the window rendered it (readRenderer); Lines is then nil
}

// WriteValue is the canonical value of a successful write. Before is nil when the file was created
// or the backend declined a diff basis; After is nil when the content is at or above the diff
// basis bound (a result never carries a huge file again); both are LF-normalized.
type WriteValue struct {
	Path      string  `json:"path"`
	Operation string  `json:"operation"`
	Before    *string `json:"before"`
	After     *string `json:"after"`
	// Lines is the number of lines written; LinesBefore the number the file had (-1: a new file,
	// or one too large for a diff basis).
	Lines       int `json:"-"`
	LinesBefore int `json:"-"`
}

// EditValue is the canonical value of a successful edit; Before and After are LF-normalized, and
// both nil when either is at or above the diff basis bound.
type EditValue struct {
	Path   string  `json:"path"`
	Before *string `json:"before"`
	After  *string `json:"after"`
	// Elsewhere are the lines that had changed since the read outside the edit (staleness region).
	Elsewhere []LineRange `json:"changedElsewhere,omitempty"`
	// Replaced is the line a replace_all success gains (replacedNote).
	Replaced string `json:"-"`
	// Prefixed is the line a success gains when new_string carried read's line prefixes
	// (newPrefixesNote).
	Prefixed string `json:"-"`
}

// appendReadFooter appends the footer line of a read window (docs/tool-fs.md "The text the model
// sees"; the texts are read.footer.* of texts.json).
//
// snippet: docs/texts.md render
func appendReadFooter(b []byte, offset, endLine, totalLines int, truncatedByBytes bool) []byte {
	switch {
	case truncatedByBytes:
		return footerCapped.AppendInts(b, offset, endLine, endLine+1)
	case endLine < totalLines:
		return footerWindow.AppendInts(b, offset, endLine, totalLines, endLine+1)
	default:
		return footerEnd.AppendInts(b, totalLines)
	}
}

// end snippet

// readFooter returns the footer line of a read window.
func readFooter(offset, endLine, totalLines int, truncatedByBytes bool) string {
	var buf [128]byte
	return string(appendReadFooter(buf[:0], offset, endLine, totalLines, truncatedByBytes))
}

// readFooterLen is len(readFooter(offset, endLine, totalLines, truncatedByBytes)), found by
// rendering the footer on the stack.
func readFooterLen(offset, endLine, totalLines int, truncatedByBytes bool) int {
	var buf [128]byte
	return len(appendReadFooter(buf[:0], offset, endLine, totalLines, truncatedByBytes))
}

// envelopeLen is the bytes of a read's text around its body, for a display path of pathLen bytes:
// the envelope rendered with an empty path and body, and the path.
func envelopeLen(pathLen int) int { return len(envelopeText.Render("", "")) + pathLen }

// pow10 are the powers of ten an int holds.
var pow10 = [...]int{1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// digits is the length of n (n >= 0) in decimal.
func digits(n int) int {
	for i, p := range pow10 {
		if n < p {
			return i + 1
		}
	}
	return len(pow10) + 1
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
	if v.text != "" {
		return v.text
	}
	size := len(v.Path) + len(v.Charset) + len(v.Note) + 192
	for _, l := range v.Lines {
		size += len(l.Text) + len(": \n")
	}
	if n := len(v.Lines); n > 0 {
		size += n * len(strconv.Itoa(v.Lines[n-1].Number)) // the widest number of a window
	}
	b := appendReadHead(make([]byte, 0, size), v.Path, v.Charset, v.Note)
	var num counter
	for _, l := range v.Lines {
		b = num.append(b, l.Number)
		b = append(append(b, l.Text...), '\n')
	}
	b = appendReadEnd(b, v.Offset, len(v.Lines), endLineOf(v), v.TotalLines, limit)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
}

// appendReadHead appends a read's envelope up to its first line.
func appendReadHead(b []byte, path, charset, note string) []byte {
	b = append(b, envelopeHead...)
	b = append(b, path...)
	if charset != "" {
		b = appendCharsetMiddle(b, charset)
	} else {
		b = append(b, envelopeMiddle...)
	}
	if note != "" {
		b = append(append(b[:len(b)-len("<content>\n")], noteLine(note)...), "<content>\n"...)
	}
	return b
}

// appendReadEnd appends what follows a read's shown lines: a blank line after any, the footer,
// the envelope's end.
func appendReadEnd(b []byte, offset, shown, endLine, totalLines, limit int) []byte {
	if shown > 0 {
		b = append(b, '\n')
	}
	b = appendReadFooter(b, offset, endLine, totalLines, shown < limit && endLine < totalLines)
	return append(b, envelopeTail...)
}

// readRenderer is the window's sink for a read whose value is not used (tools.Exec.ContentOnly):
// each line kept is rendered into the read's text at once, as RenderRead renders it, and no
// []Line is built.
type readRenderer struct {
	b         []byte // the text; its first n bytes are written
	n         int
	num       counter
	last      int // n before the last line kept
	textBytes int // what the lines can hold: the text's bytes or the window's byte cap, the least
	budget    int // the window's budget (WindowRequest.Budget), which bounds the whole text; 0: none
}

func newReadRenderer(path, charset, note string, textBytes, budget int) *readRenderer {
	b := appendReadHead(nil, path, charset, note)
	return &readRenderer{b: b, n: len(b), textBytes: textBytes, budget: budget}
}

func (r *readRenderer) grow(n, last int) {
	if n <= 0 {
		return
	}
	c := r.n + r.textBytes + n*(len(": ")+digits(last)) + 128
	if r.budget > 0 { // the window keeps the whole text within it (room)
		c = max(min(c, r.budget), r.n)
	}
	b := make([]byte, r.n, c)
	copy(b, r.b[:r.n])
	r.b = b
}

// keep appends a line. r.b is stored only when its array moves: a slice stored per line would
// cost a write barrier per line while the collector runs.
func (r *readRenderer) keep(number int, text string) {
	b := r.num.append(r.b[:r.n], number)
	b = append(append(b, text...), '\n')
	if unsafe.SliceData(b) != unsafe.SliceData(r.b) {
		r.b = b
	}
	r.last, r.n = r.n, len(b)
}

func (r *readRenderer) dropLast() { r.n = r.last }

// finish ends the text of a read from offset that showed shown lines of totalLines.
func (r *readRenderer) finish(offset, shown, totalLines, limit int) string {
	endLine := max(0, offset-1)
	if shown > 0 {
		endLine = offset + shown - 1
	}
	b := appendReadEnd(r.b[:r.n], offset, shown, endLine, totalLines, limit)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
}

// RenderWrite renders the model-facing text of a write: the envelope with "Created file" or
// "Updated file"; the content is never echoed.
func RenderWrite(v WriteValue) string {
	verb := fsText.Text("write.updated")
	if v.Operation == "create" {
		verb = fsText.Text("write.created")
	}
	return writeSuccess.Render(envelopeText.Render(v.Path, verb), writeCounts(v))
}

// writeCounts is the line after a write's envelope: how many lines it wrote and how many the file
// had.
func writeCounts(v WriteValue) string {
	switch {
	case v.Operation == "create":
		return countsNew.Render(lines(v.Lines))
	case v.LinesBefore < 0:
		return countsUnknown.Render(lines(v.Lines))
	}
	return countsReplaced.Render(lines(v.Lines), lines(v.LinesBefore))
}

// lines spells a number of lines, "1 line", "2 lines".
func lines(n int) string {
	if n == 1 {
		return fsText.Text("lines.one")
	}
	return linesMany.RenderInts(n)
}

// RenderEdit renders the model-facing sentence of an edit.
func RenderEdit(v EditValue, replaceAll bool) string {
	if replaceAll {
		return editSuccessAll.Render(v.Path, v.Replaced)
	}
	return editSuccess.Render(v.Path)
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
