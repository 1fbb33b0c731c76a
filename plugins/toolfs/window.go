package toolfs

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Line is one numbered line of a read window: its 1-based number in the file and its text without
// the line break (and without one trailing carriage return), possibly truncated.
type Line struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
}

// WindowRequest is a resolved read window: the caller has already applied its defaults and caps.
// Every field must be at least 1.
type WindowRequest struct {
	// Offset is the 1-based first line to return.
	Offset int
	// Limit is the maximum number of lines to return.
	Limit int
	// MaxLineLength is the number of Unicode code points kept per line before the truncation suffix.
	MaxLineLength int
	// MaxBytes caps the UTF-8 bytes of the selected line texts plus one byte per joining newline.
	MaxBytes int
	// SizeHint is the expected input size in bytes (0: unknown); it sizes the window's text buffer.
	SizeHint int64
	// Budget caps the bytes of the read's whole rendered text (RenderRead: envelope, numbered
	// lines, footer) for a display path of PathBytes bytes; 0: no budget. Lines stop where the
	// next would not fit; the first line is always kept, cut to fit when it alone is too long.
	Budget    int
	PathBytes int
}

// WindowResult is what a Window produces: the selected lines, the exact number of lines in the
// input, and whether selection stopped at the byte cap or at the budget.
type WindowResult struct {
	Lines             []Line
	TotalLines        int
	TruncatedByBytes  bool
	TruncatedByBudget bool
}

// ErrOffsetOutOfRange is the sentinel matched (errors.Is) by the error Window.Finish returns when
// the requested offset lies past the end of the input.
var ErrOffsetOutOfRange = fmt.Errorf("offset is out of range")

// OffsetOutOfRangeError reports a window whose offset lies past the last line. Its message is the
// model-facing text; the read tool wraps it in the seam's FS_NOT_FOUND error.
type OffsetOutOfRangeError struct {
	Offset      int
	TotalLines  int
	DisplayPath string
}

// Error renders `offset <offset> is out of range for "<p>" (<total> lines)`.
func (e *OffsetOutOfRangeError) Error() string {
	return fsText.MustRender("read.error.offset_out_of_range", "offset", strconv.Itoa(e.Offset), "path", e.DisplayPath,
		"total", strconv.Itoa(e.TotalLines))
}

// Is makes errors.Is(err, ErrOffsetOutOfRange) true.
func (e *OffsetOutOfRangeError) Is(target error) bool { return target == ErrOffsetOutOfRange }

// Window builds one read window from text delivered in chunks whose boundaries carry no meaning.
// Lines end at '\n' only; one trailing '\r' per line is dropped; a trailing '\n' at the end of the
// input does not start another line. Scanning always runs to the end so TotalLines is exact.
//
// Memory is bounded independently of the input: the current line keeps at most MaxLineLength+1
// code points (one more proves overflow), lines before the offset and after the selection are only
// counted (newlines are counted in bulk), and the selected lines are bounded by Limit and MaxBytes.
// Window never retains the chunks it is given. The zero Window is not usable; use NewWindow.
//
// The selected texts are kept in one buffer, joined by '\n' (a line text never holds one), with the
// current line growing at its tail, so a window of any number of lines costs a few allocations:
// Finish hands the buffer over as one string and the lines as substrings of it.
type Window struct {
	req WindowRequest

	completed int  // lines completed so far
	open      bool // at least one byte of the next line has been seen

	text      []byte // the selected texts joined by '\n', then the bytes kept of the current line
	selected  int    // lines selected
	start     int    // where the current line starts in text
	lineRunes int    // at least the code points started in the current line (exact once it nears the limit)
	lineFull  bool   // the current line overflowed its room; the rest is discarded

	outBytes   int
	capped     bool // by the byte cap or the budget
	overBudget bool
	room       room
}

// NewWindow returns a Window for req. Values below 1 are raised to 1 (Budget and PathBytes
// excepted).
func NewWindow(req WindowRequest) *Window {
	req = req.normalized()
	return &Window{req: req, room: newRoom(req)}
}

// normalized returns req with every value below 1 raised to 1.
func (req WindowRequest) normalized() WindowRequest {
	req.Offset = max(req.Offset, 1)
	req.Limit = max(req.Limit, 1)
	req.MaxLineLength = max(req.MaxLineLength, 1)
	req.MaxBytes = max(req.MaxBytes, 1)
	return req
}

// outOfRange is the error of a window whose offset lies past the input's total lines (offset 1
// of an empty input excepted), or nil.
func outOfRange(offset, total int, displayPath string) error {
	if offset <= total || total == 0 && offset == 1 {
		return nil
	}
	return &OffsetOutOfRangeError{Offset: offset, TotalLines: total, DisplayPath: displayPath}
}

// selecting reports whether the next completed line may still be selected.
func (w *Window) selecting() bool { return !w.capped && w.selected < w.req.Limit }

// lineStart is where the current line begins in text.
func (w *Window) lineStart() int { return w.start }

// firstTextCap bounds the first allocation of a window's text: the byte cap may be configured as
// large as 2^53, and beyond this the text grows as it is kept.
const firstTextCap = 1 << 20

// grow makes room for n more bytes in text, sizing the first allocation from the request.
func (w *Window) grow(n int) {
	if cap(w.text)-len(w.text) >= n {
		return
	}
	if w.text == nil {
		size := min(int64(w.req.MaxBytes)+64, firstTextCap) // the cap, plus the room a truncation suffix may need
		if w.req.SizeHint > 0 && w.req.SizeHint < size {
			size = w.req.SizeHint + 1
		}
		w.text = make([]byte, 0, max(int(size), n, 64))
		return
	}
	w.text = slices.Grow(w.text, n)
}

// WriteString consumes the next chunk of text. It never fails.
func (w *Window) WriteString(s string) (int, error) {
	if len(s) == 0 {
		return 0, nil
	}
	// A read-only view: Write never mutates or retains its argument.
	return w.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Write consumes the next chunk of text. It never fails; it implements io.Writer so a Window can
// be the destination of io.Copy.
func (w *Window) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if !w.selecting() {
			w.countOnly(p)
			return n, nil
		}
		if next := w.completed + 1; next < w.req.Offset {
			rest, done := w.skip(p, w.req.Offset-next)
			if !done {
				return n, nil
			}
			p = rest
			continue
		}
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.appendLine(p)
			w.open = true
			return n, nil
		}
		w.appendLine(p[:i])
		w.flushSelected()
		p = p[i+1:]
	}
	return n, nil
}

// countOnly counts the lines of p in bulk (selection is over).
func (w *Window) countOnly(p []byte) {
	c := bytes.Count(p, newline)
	w.completed += c
	if c == 0 {
		w.open = true
	} else {
		w.open = p[len(p)-1] != '\n'
	}
}

// skip consumes up to need line breaks of p without keeping any text. It reports the rest of p
// after the need-th break and true, or false when p held fewer breaks (all consumed).
func (w *Window) skip(p []byte, need int) ([]byte, bool) {
	c := bytes.Count(p, newline)
	if c < need {
		w.completed += c
		if c == 0 {
			w.open = true
		} else {
			w.open = p[len(p)-1] != '\n'
		}
		return nil, false
	}
	for range need {
		i := bytes.IndexByte(p, '\n')
		p = p[i+1:]
	}
	w.completed += need
	w.open = false
	return p, true
}

var newline = []byte{'\n'}

// appendLine adds seg to the current selected line, keeping at most MaxLineLength+1 code points.
// Code points are counted by their leading bytes, so a sequence split across chunks counts once;
// they are counted only when the line's bytes near the limit (bytes bound code points from above).
func (w *Window) appendLine(seg []byte) {
	if w.lineFull || len(seg) == 0 {
		return
	}
	limit := w.req.MaxLineLength + 1
	if w.lineRunes+len(seg) > limit {
		w.lineRunes = countLeading(w.text[w.start:]) // the bound is not enough: count
	}
	// Fast path: even if every byte started a code point, the segment fits.
	if w.lineRunes+len(seg) <= limit {
		w.grow(len(seg))
		w.text = append(w.text, seg...)
		w.lineRunes += len(seg)
		return
	}
	for i, b := range seg {
		if b&0xC0 != 0x80 {
			if w.lineRunes == limit {
				w.grow(i)
				w.text = append(w.text, seg[:i]...)
				w.lineFull = true
				return
			}
			w.lineRunes++
		}
	}
	w.grow(len(seg))
	w.text = append(w.text, seg...)
}

// countLeading counts the bytes of p that are not UTF-8 continuation bytes.
func countLeading[T string | []byte](p T) int {
	n := 0
	for i := range len(p) {
		if p[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// flushSelected completes the current line, which is eligible for selection.
func (w *Window) flushSelected() {
	w.completed++
	w.open = false
	start := w.start
	if n := len(w.text); n > start && w.text[n-1] == '\r' {
		w.text = w.text[:n-1]
	}
	truncated := w.truncateLine(start)
	w.lineRunes = 0
	w.lineFull = false

	cost := len(w.text) - start
	if w.selected > 0 {
		cost++
	}
	if w.outBytes+cost > w.req.MaxBytes {
		w.capped = true
		w.text = w.text[:start]
		return
	}
	if w.room.max > 0 {
		n := w.req.Offset + w.selected
		if !w.room.fits(n, len(w.text)-start) {
			if w.selected > 0 {
				w.capped, w.overBudget = true, true
				w.text = w.text[:start]
				return
			}
			content := w.text[start:]
			if truncated {
				content = content[:len(content)-suffixLen(w.req.MaxLineLength)]
			}
			if keep, points, ok := fitLength(content, w.room.alone(n)); ok {
				w.text = appendTruncated(w.text[:start+keep], points)
				cost = len(w.text) - start
			}
		}
		w.room.add(n, len(w.text)-start)
	}
	w.outBytes += cost
	w.selected++
	if w.selecting() {
		w.grow(1)
		w.text = append(w.text, '\n')
	}
	w.start = len(w.text)
}

// truncateLine cuts the current line (text[start:]) to MaxLineLength code points plus the
// truncation suffix when it is longer, and reports whether it did.
func (w *Window) truncateLine(start int) bool {
	if n := cut(w.text[start:], w.req.MaxLineLength); start+n < len(w.text) {
		w.text = appendTruncated(w.text[:start+n], w.req.MaxLineLength)
		return true
	}
	return false
}

// cut returns the length of the first n code points of s, counted by their leading bytes (so a
// sequence split across chunks counts once), or len(s) when it has no more.
func cut[T string | []byte](s T, n int) int {
	if len(s) <= n {
		return len(s)
	}
	seen := 0
	for i := range len(s) {
		if s[i]&0xC0 != 0x80 {
			if seen == n {
				return i
			}
			seen++
		}
	}
	return len(s)
}

// appendTruncated appends the suffix of a line cut to maxLen code points (read.line.truncated).
func appendTruncated(b []byte, maxLen int) []byte { return lineTruncated.AppendInts(b, maxLen) }

// suffixLen is the length of the suffix of a line cut to maxLen code points, found by rendering it.
func suffixLen(maxLen int) int { return lineTruncated.LenInts(maxLen) }

// Finish ends the input: a pending unterminated line is completed, then the offset is checked. It
// returns *OffsetOutOfRangeError (naming displayPath) when the window is not byte-capped and the
// offset lies past the last line, except offset 1 on empty input. Finish ends the Window: call it once.
func (w *Window) Finish(displayPath string) (WindowResult, error) {
	if w.open {
		if w.selecting() && w.completed+1 >= w.req.Offset {
			w.flushSelected()
		} else {
			w.completed++
			w.open = false
		}
	}
	if w.room.over(w.selected, w.req.Limit, w.req.Offset+w.selected-1, w.completed) {
		w.selected-- // its line stays in text, past the lines handed over
		w.overBudget = true
	}
	res := WindowResult{Lines: make([]Line, w.selected), TotalLines: w.completed,
		TruncatedByBytes: w.capped && !w.overBudget, TruncatedByBudget: w.overBudget}
	// The buffer is handed over: the Window forgets it, so no later write can change the lines.
	text := unsafe.String(unsafe.SliceData(w.text), w.start)
	w.text, w.start = nil, 0
	for i := range res.Lines {
		end := strings.IndexByte(text, '\n')
		if end < 0 {
			end = len(text)
		}
		res.Lines[i] = Line{Number: w.req.Offset + i, Text: text[:end]}
		text = text[min(end+1, len(text)):]
	}
	if w.capped { // lines at the offset were seen
		return res, nil
	}
	return res, outOfRange(w.req.Offset, w.completed, displayPath)
}
