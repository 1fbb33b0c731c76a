// Package seen records what a caller saw of a text file, as runs of whole lines (fs.Seen), and
// compares such a record with the file's current text: the content staleness rule of the
// observation policy (docs/fs.md "Staleness").
//
// A line is its bytes through its '\n' (a last line without one counts too), so the digests of
// consecutive lines concatenate to the digest of the text they cover. The digest is hash/maphash
// under one seed per process: non-cryptographic (it detects change, it does not resist forgery, and
// a forged collision would only let an edit land over bytes that differ from the ones read), fast
// on long lines, and never written anywhere (a record does not outlive the process).
package seen

import (
	"hash/maphash"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// TextCap bounds the bytes of seen text a window keeps (64 KiB); beyond it a window keeps only its
// digest, and a stale refusal says the lines changed without showing how.
const TextCap = 64 << 10

var seed = maphash.MakeSeed()

// Sum is the digest of b.
func Sum(b string) uint64 { return maphash.String(seed, b) }

// lineStarts returns the byte offset of the start of every line of text, plus len(text) at the end.
func lineStarts(text string) []int {
	starts := make([]int, 1, strings.Count(text, "\n")+2)
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	if starts[len(starts)-1] != len(text) {
		starts = append(starts, len(text))
	}
	return starts
}

// Doc is a text split into lines.
type Doc struct {
	Text   string
	starts []int
}

// Split splits text into lines.
func Split(text string) Doc { return Doc{Text: text, starts: lineStarts(text)} }

// Lines is the number of lines.
func (d Doc) Lines() int { return len(d.starts) - 1 }

// Span returns the bytes of lines first..last (1-based, clipped to the text).
func (d Doc) Span(first, last int) string {
	first, last = max(first, 1), min(last, d.Lines())
	if first > last {
		return ""
	}
	return d.Text[d.starts[first-1]:d.starts[last]]
}

// Window returns the record of lines first..first+count-1 of d, keeping the text when it is at
// most TextCap bytes.
func (d Doc) Window(first, count int) fs.SeenWindow {
	text := d.Span(first, first+count-1)
	w := fs.SeenWindow{First: first, Count: count, Sum: Sum(text)}
	if len(text) <= TextCap {
		w.Text, w.Kept = strings.Clone(text), true
	}
	return w
}

// Whole returns the record of text seen whole. It keeps text itself (a file's whole text, so
// keeping it holds no larger buffer), where Window copies the part it keeps.
func Whole(text string) *fs.Seen {
	n := countLines(text)
	w := fs.SeenWindow{First: 1, Count: n, Sum: Sum(text)}
	if len(text) <= TextCap {
		w.Text, w.Kept = text, true
	}
	return &fs.Seen{Lines: n, Windows: []fs.SeenWindow{w}}
}

// OfText returns the record of lines first..first+count-1 of text seen, as a Recorder fed text
// makes it (the running digest over the window's bytes, their copy when they fit TextCap), but in
// one pass over the window: no line index of the whole text, and the kept text copied once.
func OfText(text string, first, count int) *fs.Seen {
	first = max(first, 1)
	start := 0
	for line := 1; line < first && start < len(text); line++ {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			start = len(text)
			break
		}
		start += i + 1
	}
	end, n := start, 0
	for ; n < count && end < len(text); n++ {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			end = len(text)
			n++
			break
		}
		end += i + 1
	}
	span := text[start:end]
	if len(span) <= TextCap {
		span = strings.Clone(span)
	}
	return OfWindow(span, first, n, countLines(text))
}

// OfWindow returns the record of count lines from line first of a text of lines lines, whose bytes
// (each line through its '\n') are span, as OfText makes it, for a caller that has already cut
// the window: the digest of span, and span itself when it fits TextCap. span is kept as it is, not
// copied: a caller that cut it from a larger text copies it first when the record should not hold
// that text's memory.
func OfWindow(span string, first, count, lines int) *fs.Seen {
	w := fs.SeenWindow{First: max(first, 1), Count: count, Sum: Sum(span)}
	if len(span) <= TextCap {
		w.Text, w.Kept = span, true
	}
	return &fs.Seen{Lines: lines, Windows: []fs.SeenWindow{w}}
}

// countLines counts the lines of text: its '\n', plus a last line without one.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && text[len(text)-1] != '\n' {
		n++
	}
	return n
}
