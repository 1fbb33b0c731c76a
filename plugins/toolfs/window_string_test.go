package toolfs_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/toolfs"
)

// within reports whether s lies in the memory of text.
func within(s, text string) bool {
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
	return p >= lo && p < lo+uintptr(len(text))
}

// A window that covers most of the text shares its memory; a small one owns a copy, so it never
// holds a large file alive.
func TestWindowStringSharesOnlyLargeWindows(t *testing.T) {
	text := strings.Repeat("line of text\r\n", 1000)
	req := toolfs.WindowRequest{Offset: 1, Limit: 2000, MaxLineLength: 2000, MaxBytes: 1 << 20}
	all, err := toolfs.WindowString(text, req, "/f")
	require.NoError(t, err)
	require.Len(t, all.Lines, 1000)
	require.Equal(t, toolfs.Line{Number: 1000, Text: "line of text"}, all.Lines[999])
	require.True(t, within(all.Lines[500].Text, text))

	req.Offset, req.Limit = 10, 3
	few, err := toolfs.WindowString(text, req, "/f")
	require.NoError(t, err)
	require.Equal(t, []toolfs.Line{{Number: 10, Text: "line of text"}, {Number: 11, Text: "line of text"},
		{Number: 12, Text: "line of text"}}, few.Lines)
	require.Equal(t, 1000, few.TotalLines)
	for _, l := range few.Lines {
		require.False(t, within(l.Text, text))
	}
}

func TestWindowStringOutOfRange(t *testing.T) {
	res, err := toolfs.WindowString("a\nb\n", toolfs.WindowRequest{Offset: 3, Limit: 1, MaxLineLength: 5, MaxBytes: 50}, "/p/f")
	require.ErrorIs(t, err, toolfs.ErrOffsetOutOfRange)
	require.EqualError(t, err, `offset 3 is out of range for "/p/f" (2 lines)`)
	require.Equal(t, toolfs.WindowResult{Lines: []toolfs.Line{}, TotalLines: 2}, res)

	res, err = toolfs.WindowString("", toolfs.WindowRequest{Offset: 1, Limit: 1, MaxLineLength: 5, MaxBytes: 50}, "/p/f")
	require.NoError(t, err)
	require.Equal(t, toolfs.WindowResult{Lines: []toolfs.Line{}}, res)
}

// A byte cap configured as large as 2^53 bounds nothing up front: the streaming window's first
// allocation stays small, and both windows give the whole text.
func TestWindowHugeByteCap(t *testing.T) {
	text := strings.Repeat("abc\n", 100)
	req := toolfs.WindowRequest{Offset: 1, Limit: 1000, MaxLineLength: 10, MaxBytes: 1 << 53}
	w := toolfs.NewWindow(req)
	_, _ = w.WriteString(text)
	streamed, err := w.Finish("/f")
	require.NoError(t, err)
	whole, err := toolfs.WindowString(text, req, "/f")
	require.NoError(t, err)
	require.Len(t, streamed.Lines, 100)
	require.Equal(t, whole, streamed)
}
