package toolfs

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadRenderer: a read whose value is not used renders its lines as the window keeps them
// (readRenderer); its text is byte for byte RenderRead's of the []Line window, with the same
// counts, flags, span and error, under every cap and result budget (where the window takes its
// last line back).
func FuzzReadRenderer(f *testing.F) {
	seeds := []string{
		"", "\n", "a\nb", "a\nb\n", "a\r\nb\r\r\n", "é€😀\n" + strings.Repeat("ü", 40) + "\n\n",
		strings.Repeat("line\n", 30), strings.Repeat("x", 300) + "\nshort\n", strings.Repeat("0123456789\n", 200),
	}
	for i, s := range seeds {
		f.Add(s, uint16(i%4+1), uint16(i%5+1), uint16(4+i*9), uint16(40+i*97), uint16(i*301), uint8(i))
	}
	f.Fuzz(func(t *testing.T, text string, offset, limit, maxLine, maxBytes, budget uint16, extra uint8) {
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
		path, cs, note := "/w/f.txt", "", ""
		if extra&1 != 0 {
			cs = "windows-1252"
		}
		if extra&2 != 0 {
			note = "it is not a notebook"
		}
		req := WindowRequest{
			Offset:        int(offset%300) + 1,
			Limit:         int(limit%300) + 1,
			MaxLineLength: int(maxLine%400) + 1,
			MaxBytes:      int(maxBytes%5000) + 1,
			PathBytes:     len(path) + charsetLineLen(cs) + len(noteLine(note)),
		}
		if extra&4 != 0 {
			req.Budget = int(budget%4000) + 1
		}
		want, wantSpan, wantErr := windowString(text, req, path)
		r := newReadRenderer(path, cs, note, min(len(text), req.MaxBytes), req.Budget)
		got, shown, span, err := windowInto(text, req, path, r)
		if !reflect.DeepEqual(err, wantErr) || span != wantSpan || shown != len(want.Lines) || got.TotalLines != want.TotalLines ||
			got.TruncatedByBytes != want.TruncatedByBytes || got.TruncatedByBudget != want.TruncatedByBudget {
			t.Fatalf("windowInto: %+v, %d lines, span %q, %v; windowString: %+v, span %q, %v", got, shown, span, err, want, wantSpan, wantErr)
		}
		if err != nil {
			return
		}
		v := ReadValue{Path: path, Offset: req.Offset, Lines: want.Lines, TotalLines: want.TotalLines, Charset: cs, Note: note}
		if text, wantText := r.finish(req.Offset, shown, got.TotalLines, req.Limit), RenderRead(v, req.Limit); text != wantText {
			t.Fatalf("rendered:\n%s\nRenderRead:\n%s", text, wantText)
		}
	})
}

// TestReadRendererDropsTheLastLine: the line a window takes back (a footer longer than the one it
// was admitted with, room.over; a total of 10^12 lines and more) leaves the text as RenderRead's
// of the lines before it.
func TestReadRendererDropsTheLastLine(t *testing.T) {
	r := newReadRenderer("/w/f.txt", "", "", 64, 0)
	r.grow(3, 3)
	r.keep(1, "one")
	r.keep(2, "two")
	r.dropLast()
	v := ReadValue{Path: "/w/f.txt", Offset: 1, Lines: []Line{{1, "one"}}, TotalLines: 5}
	if got, want := r.finish(1, 1, 5, 3), RenderRead(v, 3); got != want {
		t.Fatalf("rendered:\n%s\nwant:\n%s", got, want)
	}
	r.keep(2, "deux")
	v.Lines = append(v.Lines, Line{2, "deux"})
	if got, want := r.finish(1, 2, 5, 3), RenderRead(v, 3); got != want {
		t.Fatalf("after a line taken back, rendered:\n%s\nwant:\n%s", got, want)
	}
}
