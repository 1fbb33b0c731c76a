package seen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line " + strings.Repeat("x", i%7) + "\n")
	}
	return b.String()
}

// The streaming recorder and the whole-text record agree, whatever the chunking.
func TestRecorderMatchesOfText(t *testing.T) {
	text := numbered(50) + "last without newline"
	for _, chunk := range []int{1, 3, 7, 64, 1 << 20} {
		for _, c := range []struct{ from, limit, count int }{{1, 51, 51}, {10, 5, 5}, {48, 10, 4}, {20, 10, 3}} {
			r := seen.NewRecorder(c.from, c.limit)
			for i := 0; i < len(text); i += chunk {
				_, _ = r.WriteString(text[i:min(len(text), i+chunk)])
			}
			got := r.Seen(c.count, 51)
			lines := strings.SplitAfter(text, "\n")
			span := strings.Join(lines[c.from-1:min(len(lines), c.from-1+c.count)], "")
			want := &fs.Seen{Lines: 51, Windows: []fs.SeenWindow{{First: c.from, Count: c.count, Sum: seen.Sum(span), Text: span, Kept: true}}}
			assert.Equal(t, want, got, "chunk %d window %+v", chunk, c)
			assert.Equal(t, want, seen.OfText(text, c.from, c.count))
		}
	}
}

func TestSameAndCovers(t *testing.T) {
	text := numbered(10)
	s := seen.OfText(text, 3, 4)
	d := seen.Split(text)
	assert.True(t, seen.Unchanged(s, d))
	assert.False(t, seen.Covers(s))
	assert.True(t, seen.Covers(seen.Whole(text)))

	changed := strings.Replace(text, "line xxxx\n", "line XXXX\n", 1) // line 4
	assert.False(t, seen.Unchanged(s, seen.Split(changed)))
	elsewhere := text + "appended\n"
	assert.True(t, seen.Unchanged(s, seen.Split(elsewhere)), "lines after a window that did not reach the end may change")
	assert.False(t, seen.Unchanged(seen.Whole(text), seen.Split(elsewhere)), "a window through the end saw the end of the file")
	assert.False(t, seen.Unchanged(seen.Whole(text), seen.Split(strings.TrimSuffix(text, "\n"))), "the final line break counts")
	crlf := strings.ReplaceAll(text, "\n", "\r\n")
	assert.False(t, seen.Unchanged(seen.Whole(text), seen.Split(crlf)), "bytes decide: CRLF is a change")
	assert.True(t, seen.Unchanged(seen.Whole(""), seen.Split("")))
}

func TestRegion(t *testing.T) {
	text := numbered(10)
	s := seen.Whole(text)
	lines := strings.SplitAfter(text, "\n")
	lines[7] = "formatted\n" // line 8
	d := seen.Split(strings.Join(lines, ""))
	elsewhere, ok := seen.Region(s, d, []fs.LineRange{{First: 2, Last: 3}})
	require.True(t, ok)
	assert.Equal(t, []fs.LineRange{{First: 8, Last: 8}}, elsewhere)
	_, ok = seen.Region(s, d, []fs.LineRange{{First: 7, Last: 8}})
	assert.False(t, ok, "a touched line that changed")
	part := seen.OfText(text, 1, 4)
	_, ok = seen.Region(part, d, []fs.LineRange{{First: 6, Last: 6}})
	assert.False(t, ok, "a touched line that was never seen")
}

func TestTouched(t *testing.T) {
	assert.Equal(t, []fs.LineRange{{First: 2, Last: 2}, {First: 4, Last: 4}, {First: 5, Last: 5}}, seen.Touched("a\nb\nc\nb\nb\n", "b\n"), "each match, left to right, a final newline ends its line")
	assert.Equal(t, []fs.LineRange{{First: 1, Last: 2}}, seen.Touched("xa\nbx\n", "a\nb"))
	assert.Nil(t, seen.Touched("abc", "z"))
}

func TestChangesIsBoundedAndShowsCR(t *testing.T) {
	text := numbered(2000)
	s := &fs.Seen{Lines: 2000, Windows: []fs.SeenWindow{seen.Split(text).Window(1, 2000)}}
	require.True(t, s.Windows[0].Kept)
	out := seen.Changes(s, seen.Split(strings.ReplaceAll(text, "x", "y")), seen.DiffMaxBytes)
	assert.LessOrEqual(t, len(out), seen.DiffMaxBytes)
	assert.Contains(t, out, "… (cut at 4000 bytes")
	cr := seen.Changes(seen.Whole("a\nb\n"), seen.Split("a\nb\r\n"), seen.DiffMaxBytes)
	assert.Equal(t, "@@ -1,2 +1,2 @@\n a\n-b\n+b␍", cr)
	both := seen.Changes(seen.Whole("a\r\nb\r\n"), seen.Split("a\r\nc\r\n"), seen.DiffMaxBytes)
	assert.Equal(t, "@@ -1,2 +1,2 @@\n a\n-b\n+c", both, "a CRLF file's line ends are not marked")
	big := strings.Repeat("z", seen.TextCap+1) + "\n"
	s = seen.Whole(big)
	assert.False(t, s.Windows[0].Kept, "beyond TextCap only the digest is kept")
	assert.Equal(t, "line 1 changed since they were read (not shown: too much was read to keep its text)", seen.Changes(s, seen.Split("q\n"), seen.DiffMaxBytes))
}

func TestRegionFollowsMovedLines(t *testing.T) {
	text := numbered(10)
	s := seen.Whole(text)
	d := seen.Split("// a header a formatter added\n" + text)
	elsewhere, ok := seen.Region(s, d, []fs.LineRange{{First: 6, Last: 7}})
	require.True(t, ok, "the touched lines were seen, one line lower")
	assert.Equal(t, []fs.LineRange{{First: 1, Last: 1}}, elsewhere)

	lines := strings.SplitAfter(text, "\n")
	d = seen.Split(strings.Join(append(lines[:2:2], lines[3:]...), "")) // line 3 removed
	elsewhere, ok = seen.Region(s, d, []fs.LineRange{{First: 8, Last: 8}})
	require.True(t, ok)
	assert.Equal(t, []fs.LineRange{{First: 3, Last: 3}}, elsewhere, "where the seen line went missing")

	part := seen.OfText(text, 4, 3) // lines 4-6
	d = seen.Split("new\n" + text)
	_, ok = seen.Region(part, d, []fs.LineRange{{First: 5, Last: 5}})
	assert.True(t, ok, "a partial window moved down by the growth")
	_, ok = seen.Region(part, d, []fs.LineRange{{First: 9, Last: 9}})
	assert.False(t, ok, "a line outside what was seen")
}

func TestWriteCountedSkipsWhatIsBeforeTheRange(t *testing.T) {
	text := numbered(40)
	want := seen.OfText(text, 30, 5)
	r := seen.NewRecorder(30, 5)
	through := 0
	for i := 0; i < len(text); i += 9 {
		chunk := text[i:min(len(text), i+9)]
		through += strings.Count(chunk, "\n")
		r.WriteCounted([]byte(chunk), through)
	}
	assert.Equal(t, want, r.Seen(5, 40))
}

// A selection shorter than what was recorded keeps its text when it fits, though the recorded
// lines did not.
func TestRecorderKeepsAFittingSelection(t *testing.T) {
	line := strings.Repeat("y", 999) + "\n"
	text := strings.Repeat(line, 200) // 200 KB
	r := seen.NewRecorder(1, 200)
	_, _ = r.WriteString(text)
	small := r.Seen(50, 200)
	require.True(t, small.Windows[0].Kept)
	assert.Equal(t, strings.Repeat(line, 50), small.Windows[0].Text)
	assert.Equal(t, seen.OfText(text, 1, 50), small)
	r = seen.NewRecorder(1, 200)
	_, _ = r.WriteString(text)
	big := r.Seen(200, 200)
	assert.False(t, big.Windows[0].Kept)
	assert.Equal(t, seen.OfText(text, 1, 200), big)
}

func TestChangesSaysWhenOnlyTheEndChanged(t *testing.T) {
	assert.Equal(t, "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b", seen.Changes(seen.Whole("a\nb"), seen.Split("a\nb\n"), seen.DiffMaxBytes))
}

// A line the diff pairs with a seen line does not count as seen when a line it finds added has
// the same text: which of the two the model read cannot be told, so an edit of either is stale
// (issue 31 N5: the edit landed on a line the model never saw, said to be unchanged).
func TestRegionDoesNotTakeANewLineForASeenOne(t *testing.T) {
	s := seen.Whole("func f() {\n\treturn 1\n}\n")
	d := seen.Split("func f() {\n\treturn 1\n\treturn 1\n}\n") // another process added a copy
	for _, line := range []int{2, 3} {
		_, ok := seen.Region(s, d, []fs.LineRange{{First: line, Last: line}})
		assert.False(t, ok, "line %d", line)
	}
	elsewhere, ok := seen.Region(s, d, []fs.LineRange{{First: 4, Last: 4}})
	require.True(t, ok, "a line no added line resembles still counts")
	assert.Len(t, elsewhere, 1)

	s = seen.Whole("a\nb\nc\n")
	d = seen.Split("b\nc\na\nb\nc\n") // lines equal to read ones, added before them
	for line := 1; line <= 5; line++ {
		_, ok := seen.Region(s, d, []fs.LineRange{{First: line, Last: line}})
		assert.Equal(t, line == 3, ok, "line %d", line)
	}
}
