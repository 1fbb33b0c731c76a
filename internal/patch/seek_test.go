package patch

import (
	"context"
	"strings"
	"testing"
)

// naiveSeek is Codex's search as written: each pass over every start position, every line of
// the pattern compared. seeker must answer as it does.
func naiveSeek(lines, pattern []string, start int, eof bool) int {
	if len(pattern) == 0 {
		return start
	}
	if len(pattern) > len(lines) {
		return -1
	}
	if eof {
		start = len(lines) - len(pattern)
	}
	for _, key := range passes {
	next:
		for i := start; i+len(pattern) <= len(lines); i++ {
			for j, p := range pattern {
				if key(lines[i+j]) != key(p) {
					continue next
				}
			}
			return i
		}
	}
	return -1
}

// FuzzSeek: the indexed search gives the naive search's answer (the file and the pattern are the
// input's lines before and after a NUL; start and eof as given).
func FuzzSeek(f *testing.F) {
	f.Add("a\nb\na\nb\nc\x00a\nb", 1, false)
	f.Add("x \n\u2014y\n  z\n\x00x\n-y\nz", 0, false)
	f.Add("a\na\na\x00a\na", 0, true)
	f.Add("\n\n\n\x00\n", 2, false)
	f.Add("p\nq\x00", 0, false)
	f.Fuzz(func(t *testing.T, text string, start int, eof bool) {
		file, pat, _ := strings.Cut(text, "\x00")
		lines, pattern := strings.Split(file, "\n"), strings.Split(pat, "\n")
		if pat == "" {
			pattern = nil
		}
		if start < 0 || start > len(lines) {
			return
		}
		want := naiveSeek(lines, pattern, start, eof)
		s := &seeker{ctx: context.Background(), lines: lines}
		for range 2 { // the second time on the built indexes
			got, err := s.seek(pattern, start, eof)
			if err != nil || got != want {
				t.Fatalf("seek(%q, %q, %d, %v) = %d, %v; want %d", lines, pattern, start, eof, got, err, want)
			}
		}
	})
}

// A done context stops the search with its error.
func TestSeekStopsOnCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lines := strings.Split(strings.Repeat("a\n", 3*checkEvery), "\n")
	_, err := (&seeker{ctx: ctx, lines: lines}).seek([]string{"a", "b"}, 0, false)
	if err != context.Canceled {
		t.Fatalf("err = %v", err)
	}
}
