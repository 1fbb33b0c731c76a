package toolfs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// TestReadContentOnlyRendersTheSameText: a read whose host drops the value and the meta (an MCP
// server, tools.Exec.ContentOnly) renders its text as the window goes; the text is the one a read
// with its value gets, for windows that end, are capped by the limit, by bytes, and cut long
// lines, and the value then carries no lines.
func TestReadContentOnlyRendersTheSameText(t *testing.T) {
	e := newEnv(t, envOptions{})
	var b strings.Builder
	for i := range 3000 {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%7))
		if i%500 == 0 {
			b.WriteString(strings.Repeat("long ", 600))
		}
		b.WriteString("\r\n")
	}
	e.writeFile(t, "f.txt", b.String())
	e.writeFile(t, "small.txt", "a\nb")
	for _, a := range []args{
		{"file_path": e.path("f.txt")},
		{"file_path": e.path("f.txt"), "offset": 2990},
		{"file_path": e.path("f.txt"), "offset": 400, "limit": 3},
		{"file_path": e.path("small.txt")},
		{"file_path": e.path("small.txt"), "offset": 2},
	} {
		full := e.call("read", a)
		requireOK(t, full)
		only := e.rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: a, Session: e.session, SkipMeta: true, SkipValue: true})
		requireOK(t, only)
		require.Equal(t, full.Text(), only.Text(), "%v", a)
		require.NotEmpty(t, full.Value.(toolfs.ReadValue).Lines)
		require.Nil(t, only.Value.(toolfs.ReadValue).Lines)
		require.Equal(t, full.Value.(toolfs.ReadValue).TotalLines, only.Value.(toolfs.ReadValue).TotalLines)
	}
}
