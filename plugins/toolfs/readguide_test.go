package toolfs_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each refusal of read names the next step on the lines after its first (docs/tool-fs.md "read",
// "The next step").
func TestReadRefusalsNameTheNextStep(t *testing.T) {
	e := newEnv(t, envOptions{})
	require.NoError(t, os.Mkdir(e.path("sub"), 0o755))
	e.writeFile(t, "sub/handler.go", "package main\n")
	e.writeFile(t, "logo.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	e.writeFile(t, "data.bin", "\x00\x01binary\x00")
	requireFailure(t, e.call("read", args{"file_path": "sub"}), `Error: cannot read "`+e.path("sub")+`": not a regular file
`+golden("read.next.directory", "quoted_path", strconv.Quote(e.path("sub"))), "FS_NOT_REGULAR_FILE")
	requireFailure(t, e.call("read", args{"file_path": "logo.png"}), `Error: cannot read "`+e.path("logo.png")+`": binary file
`+golden("read.next.image", "size", golden("read.next.size", "bytes", "16"), "type", "image/png"), "FS_NOT_TEXT")
	requireFailure(t, e.call("read", args{"file_path": "data.bin"}), `Error: cannot read "`+e.path("data.bin")+`": binary file
`+golden("read.next.binary", "size", golden("read.next.size", "bytes", "9"), "type", "application/octet-stream"), "FS_NOT_TEXT")
	requireFailure(t, e.call("read", args{"file_path": "sub/handlr.go"}), `Error: cannot read "`+e.path("sub/handlr.go")+`": not found
`+golden("read.next.closest", "names", strconv.Quote(e.path("sub/handler.go"))), "FS_NOT_FOUND")
	requireFailure(t, e.call("read", args{"file_path": "nothing/like/it.txt"}), `Error: cannot read "`+e.path("nothing/like/it.txt")+`": not found`, "FS_NOT_FOUND")
}
