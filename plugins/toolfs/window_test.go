package toolfs_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func defaultReq() toolfs.WindowRequest {
	return toolfs.WindowRequest{Offset: 1, Limit: 2000, MaxLineLength: 2000, MaxBytes: 51200}
}

func build(t *testing.T, text string, req toolfs.WindowRequest, chunk int) (toolfs.WindowResult, error) {
	t.Helper()
	w := toolfs.NewWindow(req)
	if chunk <= 0 {
		chunk = len(text) + 1
	}
	for len(text) > 0 {
		n := min(chunk, len(text))
		_, err := w.WriteString(text[:n])
		require.NoError(t, err)
		text = text[n:]
	}
	return w.Finish("/abs/f.txt")
}

func texts(lines []toolfs.Line) []string {
	out := []string{}
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

func TestWindowLineSplitting(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		lines []string
		total int
	}{
		{"empty", "", []string{}, 0},
		{"lone newline is one empty line", "\n", []string{""}, 1},
		{"no trailing newline", "a\nb", []string{"a", "b"}, 2},
		{"trailing newline adds no line", "a\nb\n", []string{"a", "b"}, 2},
		{"blank last line", "a\n\n", []string{"a", ""}, 2},
		{"crlf stripped once", "a\r\nb\r\r\n", []string{"a", "b\r"}, 2},
		{"lone cr is content", "a\rb\nc", []string{"a\rb", "c"}, 2},
		{"final cr only line", "a\n\r", []string{"a", ""}, 2},
		{"unicode kept whole", "é€😀\nx", []string{"é€😀", "x"}, 2},
	}
	for _, tc := range cases {
		for _, chunk := range []int{0, 1, 2, 3} {
			res, err := build(t, tc.text, defaultReq(), chunk)
			require.NoError(t, err, tc.name)
			assert.Equal(t, tc.lines, texts(res.Lines), "%s chunk=%d", tc.name, chunk)
			assert.Equal(t, tc.total, res.TotalLines, "%s chunk=%d", tc.name, chunk)
			for i, l := range res.Lines {
				assert.Equal(t, i+1, l.Number)
			}
		}
	}
}

func TestWindowOffsetLimit(t *testing.T) {
	req := defaultReq()
	req.Offset, req.Limit = 2, 2
	for _, chunk := range []int{0, 1, 5} {
		res, err := build(t, "one\ntwo\nthree\nfour", req, chunk)
		require.NoError(t, err)
		assert.Equal(t, []toolfs.Line{{Number: 2, Text: "two"}, {Number: 3, Text: "three"}}, res.Lines)
		assert.Equal(t, 4, res.TotalLines)
		assert.False(t, res.TruncatedByBytes)
	}
}

func TestWindowTruncation(t *testing.T) {
	cases := []struct {
		name string
		max  int
		text string
		want string
	}{
		{"plain", 4, "abcdefgh", "abcd" + truncatedTo(4)},
		{"exact length", 4, "abcd", "abcd"},
		{"exact length plus cr", 4, "abcd\r\n", "abcd"},
		{"one over keeps no cr", 4, "abcde\r\n", "abcd" + truncatedTo(4)},
		// The kept buffer is max+1 code points; a '\r' in that last slot is stripped like a
		// trailing one (the window strips after capping).
		{"cr at the proof slot", 3, "abc\rXYZ", "abc"},
		{"code points not bytes", 3, "ééééé", "ééé" + truncatedTo(3)},
		{"astral counts once", 2, "😀😀😀", "😀😀" + truncatedTo(2)},
	}
	for _, tc := range cases {
		req := defaultReq()
		req.MaxLineLength = tc.max
		for _, chunk := range []int{0, 1, 2, 7} {
			res, err := build(t, tc.text, req, chunk)
			require.NoError(t, err)
			require.Len(t, res.Lines, 1, tc.name)
			assert.Equal(t, tc.want, res.Lines[0].Text, "%s chunk=%d", tc.name, chunk)
		}
	}
}

func TestWindowByteCap(t *testing.T) {
	req := defaultReq()
	req.MaxBytes = 9
	res, err := build(t, "aaaa\nbbbb\ncccc", req, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"aaaa", "bbbb"}, texts(res.Lines))
	assert.Equal(t, 3, res.TotalLines)
	assert.True(t, res.TruncatedByBytes)

	// Selection stops at the first line that overflows, even when later lines are shorter.
	req.MaxBytes = 6
	res, err = build(t, "aaaa\nbbbb\nc\nd", req, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"aaaa"}, texts(res.Lines))
	assert.Equal(t, 4, res.TotalLines)
	assert.True(t, res.TruncatedByBytes)

	// The truncation suffix counts; a first line that alone overflows selects nothing.
	req = defaultReq()
	req.Offset, req.MaxBytes, req.MaxLineLength = 5, 10, 4
	res, err = build(t, "1\n2\n3\n4\nabcdefgh\nx", req, 0)
	require.NoError(t, err)
	assert.Empty(t, res.Lines)
	assert.Equal(t, 6, res.TotalLines)
	assert.True(t, res.TruncatedByBytes)

	// Multi-byte text is costed in UTF-8 bytes.
	req = defaultReq()
	req.MaxBytes = 5
	res, err = build(t, "éé\né", req, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"éé"}, texts(res.Lines))
	assert.True(t, res.TruncatedByBytes)
}

func TestWindowDefaultsByteCapOnLongLines(t *testing.T) {
	text := strings.TrimSuffix(strings.Repeat(strings.Repeat("y", 100)+"\n", 2000), "\n")
	res, err := build(t, text, defaultReq(), 4096)
	require.NoError(t, err)
	assert.True(t, res.TruncatedByBytes)
	assert.Equal(t, 2000, res.TotalLines)
	assert.Len(t, res.Lines, 506) // 101*506-1 = 51105 fits; 101*507-1 = 51206 does not
}

func TestWindowOutOfRange(t *testing.T) {
	cases := []struct {
		text    string
		offset  int
		wantErr string
	}{
		{"", 1, ""},
		{"", 2, `offset 2 is out of range for "/abs/f.txt" (0 lines)`},
		{"a\nb\n", 3, `offset 3 is out of range for "/abs/f.txt" (2 lines)`},
		{"a\nb", 2, ""},
		{"a\nb\n", 2, ""},
	}
	for _, tc := range cases {
		req := defaultReq()
		req.Offset = tc.offset
		res, err := build(t, tc.text, req, 1)
		if tc.wantErr == "" {
			require.NoError(t, err)
			continue
		}
		require.Error(t, err)
		assert.Equal(t, tc.wantErr, err.Error())
		assert.True(t, errors.Is(err, toolfs.ErrOffsetOutOfRange))
		var oe *toolfs.OffsetOutOfRangeError
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, res.TotalLines, oe.TotalLines)
	}
	// A byte-capped window never reports out of range.
	req := defaultReq()
	req.Offset, req.MaxBytes = 2, 1
	res, err := build(t, "a\nbb", req, 0)
	require.NoError(t, err)
	assert.True(t, res.TruncatedByBytes)
}

// TestWindowLongLineMemory pins that an over-long line costs memory bounded by MaxLineLength,
// whatever its length.
func TestWindowLongLineMemory(t *testing.T) {
	chunk := []byte(strings.Repeat("é", 32*1024)) // 64 KiB
	req := defaultReq()
	w := toolfs.NewWindow(req)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 128 { // 8 MiB, one line
		_, _ = w.Write(chunk)
	}
	_, _ = w.WriteString("\nnext")
	res, err := w.Finish("/f")
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, 2, res.TotalLines)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256*1024))
	assert.True(t, strings.HasSuffix(res.Lines[0].Text, truncatedTo(2000)))
}
