package toolfs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// oracleWindow is the window algorithm written the slow, obvious way: split the whole text on
// '\n', keep max+1 code points of each line, strip one trailing '\r', truncate, select.
func oracleWindow(text string, req WindowRequest) (WindowResult, bool) {
	parts := strings.Split(text, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	res := WindowResult{Lines: []Line{}, TotalLines: len(parts)}
	out := 0
	for i, raw := range parts {
		if res.TruncatedByBytes || i+1 < req.Offset || len(res.Lines) >= req.Limit {
			continue
		}
		runes := []rune(raw)
		if len(runes) > req.MaxLineLength+1 {
			runes = runes[:req.MaxLineLength+1]
		}
		if n := len(runes); n > 0 && runes[n-1] == '\r' {
			runes = runes[:n-1]
		}
		line := string(runes)
		if len(runes) > req.MaxLineLength {
			line = string(runes[:req.MaxLineLength]) + lineTruncated.RenderInts(req.MaxLineLength)
		}
		cost := len(line)
		if len(res.Lines) > 0 {
			cost++
		}
		if out+cost > req.MaxBytes {
			res.TruncatedByBytes = true
			continue
		}
		out += cost
		res.Lines = append(res.Lines, Line{Number: i + 1, Text: line})
	}
	outOfRange := !res.TruncatedByBytes && req.Offset > res.TotalLines && !(res.TotalLines == 0 && req.Offset == 1)
	return res, outOfRange
}

// FuzzWindow checks the streaming window against the oracle for arbitrary chunkings, and the
// invariants of docs/tool-fs.md "The window": line numbers strictly increase from the offset, the
// byte accounting never exceeds the cap, the renderer re-derives the byte-cap flag, and the kept
// line buffer is bounded by MaxLineLength whatever the line length.
func FuzzWindow(f *testing.F) {
	seeds := []string{
		"", "\n", "a\nb", "a\nb\n", "a\n\n", "a\r\nb\r\r\n", "x\ry\n\r",
		"aaaa\nbbbb\ncccc", "one\ntwo\nthree\nfour", "abcdefgh", "abc\rXYZ\n",
		"é€😀\n" + strings.Repeat("ü", 40) + "\n\n", strings.Repeat("line\n", 30),
	}
	for i, s := range seeds {
		f.Add(s, uint8(i%4+1), uint8(i%3+1), uint8(4+i), uint16(9+i*7), uint8(i))
	}
	f.Fuzz(func(t *testing.T, text string, offset, limit, maxLine uint8, maxBytes uint16, chunkSeed uint8) {
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
		req := WindowRequest{
			Offset:        int(offset%8) + 1,
			Limit:         int(limit%6) + 1,
			MaxLineLength: int(maxLine%12) + 1,
			MaxBytes:      int(maxBytes%200) + 1,
		}
		want, wantOOR := oracleWindow(text, req)

		w := NewWindow(req)
		rest := []byte(text)
		step := int(chunkSeed%13) + 1
		for len(rest) > 0 {
			n := min(step, len(rest))
			_, _ = w.Write(rest[:n])
			rest = rest[n:]
			if n := len(w.text) - w.lineStart(); n > 4*(req.MaxLineLength+1) {
				t.Fatalf("the current line holds %d bytes for max %d", n, req.MaxLineLength)
			}
			if kept := w.lineStart(); kept > req.MaxBytes+1 { // the texts, their separators and one for the next line
				t.Fatalf("the selected lines hold %d bytes for max %d", kept, req.MaxBytes)
			}
			step = step%7 + 1
		}
		got, err := w.Finish("/f")
		whole, wholeErr := WindowString(text, req, "/f")
		if !reflect.DeepEqual(whole, got) || !reflect.DeepEqual(wholeErr, err) {
			t.Fatalf("WindowString: got %+v, %v; Window gives %+v, %v", whole, wholeErr, got, err)
		}
		if wantOOR != (err != nil) {
			t.Fatalf("out of range: want %v, got %v", wantOOR, err)
		}
		if err != nil && !errors.Is(err, ErrOffsetOutOfRange) {
			t.Fatalf("unexpected error %v", err)
		}
		if got.TotalLines != want.TotalLines || got.TruncatedByBytes != want.TruncatedByBytes ||
			len(got.Lines) != len(want.Lines) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
		used := 0
		prev := req.Offset - 1
		for i, l := range got.Lines {
			if l != want.Lines[i] {
				t.Fatalf("line %d: got %+v, want %+v", i, l, want.Lines[i])
			}
			if l.Number <= prev || l.Number > got.TotalLines {
				t.Fatalf("line numbers not increasing within range: %+v", got.Lines)
			}
			prev = l.Number
			used += len(l.Text)
			if i > 0 {
				used++
			}
		}
		if used > req.MaxBytes {
			t.Fatalf("selected %d bytes over cap %d", used, req.MaxBytes)
		}
		if err != nil {
			return
		}
		v := ReadValue{Path: "/f", Offset: req.Offset, Lines: got.Lines, TotalLines: got.TotalLines}
		rendered := RenderRead(v, req.Limit)
		end := endLineOf(v)
		footer := readFooter(req.Offset, end, got.TotalLines, got.TruncatedByBytes)
		if !strings.HasSuffix(rendered, "\n"+footer+"\n</content>") {
			t.Fatalf("rendered footer mismatch:\n%s\nwant footer %s", rendered, footer)
		}
	})
}
