package seen_test

import (
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

// FuzzCompare checks, for any seen text, window and current text: a recorder fed in chunks agrees
// with the whole-text record; an unchanged text is unchanged and lands any touched seen line; the
// rendered changes stay within their bound and are empty exactly when nothing seen changed.
func FuzzCompare(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", 1, 3, 2, 3)
	f.Add("a\r\nb", "x\na\r\nb", 2, 1, 1, 5)
	f.Add("", "z", 1, 1, 1, 1)
	f.Fuzz(func(t *testing.T, was, now string, first, count, touched, chunk int) {
		first, count, chunk = 1+abs(first)%8, abs(count)%8, 1+abs(chunk)%16
		r := seen.NewRecorder(first, count)
		for i := 0; i < len(was); i += chunk {
			_, _ = r.WriteString(was[i:min(len(was), i+chunk)])
		}
		total := strings.Count(was, "\n")
		if was != "" && !strings.HasSuffix(was, "\n") {
			total++
		}
		s := r.Seen(count, total)
		if want := seen.OfText(was, first, count); s.Windows[0] != want.Windows[0] || s.Lines != want.Lines {
			t.Fatalf("recorder %+v, whole text %+v", s, want)
		}
		same := seen.Split(was)
		if !seen.Unchanged(s, same) || seen.Changes(s, same, seen.DiffMaxBytes) != "" {
			t.Fatal("an unchanged text is changed")
		}
		w := s.Windows[0]
		if w.Count > 0 {
			line := w.First + abs(touched)%w.Count
			if _, ok := seen.Region(s, same, []fs.LineRange{{First: line, Last: line}}); !ok {
				t.Fatal("a seen, unchanged line does not land")
			}
		}
		d := seen.Split(now)
		out := seen.Changes(s, d, seen.DiffMaxBytes)
		if len(out) > seen.DiffMaxBytes || (out == "") != seen.Unchanged(s, d) {
			t.Fatalf("changes %q for unchanged=%v", out, seen.Unchanged(s, d))
		}
		_, _ = seen.Region(s, d, []fs.LineRange{{First: 1, Last: max(1, d.Lines())}})
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestOfTextAgreesWithARecorderAtTextCap: the one-pass OfText keeps the text exactly when a
// Recorder fed the same text keeps it, windows just under, at and over TextCap.
func TestOfTextAgreesWithARecorderAtTextCap(t *testing.T) {
	line := strings.Repeat("x", 1023) + "\n" // 1 KiB a line: 64 lines are TextCap
	for _, tail := range []string{"", "y", "y\n"} {
		text := strings.Repeat(line, 70) + tail
		for _, w := range [][2]int{{1, 63}, {1, 64}, {1, 65}, {2, 64}, {3, 70}, {7, 100}, {71, 5}, {90, 3}, {1, 0}} {
			r := seen.NewRecorder(w[0], w[1])
			for i := 0; i < len(text); i += 4000 {
				_, _ = r.WriteString(text[i:min(len(text), i+4000)])
			}
			total := strings.Count(text, "\n")
			if tail == "y" {
				total++ // a last line without its line break
			}
			want := r.Seen(w[1], total)
			got := seen.OfText(text, w[0], w[1])
			if got.Lines != want.Lines || got.Windows[0] != want.Windows[0] {
				t.Fatalf("tail %q window %v: OfText {%d %d %v} recorder {%d %d %v}", tail, w,
					got.Windows[0].Count, len(got.Windows[0].Text), got.Windows[0].Kept, want.Windows[0].Count, len(want.Windows[0].Text), want.Windows[0].Kept)
			}
		}
	}
}
