package toolfs_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// A write over a file read only in part, that would drop lines never read, is refused before
// anything is written; the identical write sent again lands (docs/tool-fs.md "Writes that would
// drop lines").
func TestWriteThatDropsUnreadLinesIsRefusedOnce(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "big.txt", numbered(212))
	requireOK(t, e.call("read", args{"file_path": e.path("big.txt"), "offset": 21, "limit": 5}))
	write := args{"file_path": e.path("big.txt"), "content": "a\nb\nc\nd\ne\nf\n"}
	requireFailure(t, e.call("write", write), "Error: "+golden("write.drop.head", "path", e.path("big.txt"), "gone", "207", "total", "212")+"\n"+
		golden("write.drop.unseen", "read", "lines 21-25", "n", "207")+"\n"+golden("write.drop.next"), "FS_WOULD_DROP_LINES")
	assert.Equal(t, numbered(212), e.readFile(t, "big.txt"), "nothing is written")

	// Another write is refused in its turn; the same one sent again right after lands.
	other := args{"file_path": e.path("big.txt"), "content": "a\n"}
	require.True(t, e.call("write", other).IsError)
	r := e.call("write", other)
	requireOK(t, r)
	assert.Equal(t, "a\n", e.readFile(t, "big.txt"))
	assert.True(t, strings.HasSuffix(r.Text(), "</content>\nWrote 1 line; the file had 212 lines."), r.Text())
}

// The lines a write keeps, and the lines read, are not counted as dropped: a partial read followed
// by a write that keeps every unread line lands at once.
func TestWriteKeepingTheUnreadLinesLands(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", numbered(30))
	requireOK(t, e.call("read", args{"file_path": e.path("a.txt"), "limit": 10}))
	content := strings.Replace(numbered(30), "line 3\n", "line three\n", 1)
	requireOK(t, e.call("write", args{"file_path": e.path("a.txt"), "content": content}))
	assert.Equal(t, content, e.readFile(t, "a.txt"))
}

// A whole-file write whose placeholder stands for most of a file read whole is refused, quoting
// the placeholder; the same write sent again lands. Another session's refusal does not let it
// through.
func TestWriteWithAPlaceholderForMostOfTheFileIsRefusedOnce(t *testing.T) {
	e := newEnv(t, envOptions{})
	old := "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n\nfunc C() int {\n\treturn 3\n}\n"
	e.writeFile(t, "a.go", old)
	requireOK(t, e.call("read", args{"file_path": e.path("a.go")}))
	write := args{"file_path": e.path("a.go"), "content": "package a\n\nfunc A() int {\n\treturn 10\n}\n\n// ... rest of file unchanged ...\n"}
	refusal := "Error: " + golden("write.drop.head", "path", e.path("a.go"), "gone", "8", "total", "13") + "\n" +
		golden("write.drop.placeholder", "line", "7", "quoted_text", `"// ... rest of file unchanged ..."`) + "\n" + golden("write.drop.next")
	requireFailure(t, e.call("write", write), refusal, "FS_WOULD_DROP_LINES")
	other := tools.NewSession("other")
	requireOK(t, e.callIn(other, "read", args{"file_path": e.path("a.go")}))
	requireFailure(t, e.callIn(other, "write", write), refusal, "FS_WOULD_DROP_LINES")
	assert.Equal(t, old, e.readFile(t, "a.go"))
	r := e.call("write", write)
	requireOK(t, r)
	assert.True(t, strings.HasSuffix(r.Text(), "</content>\nWrote 7 lines; the file had 13 lines."), r.Text())
}

// A placeholder-like comment in a write that keeps most of the file is no elision.
func TestWriteWithAPlaceholderKeepingMostOfTheFileLands(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.go", "package a\n\nfunc A() {}\n\nfunc B() {}\n")
	requireOK(t, e.call("read", args{"file_path": e.path("a.go")}))
	requireOK(t, e.call("write", args{"file_path": e.path("a.go"), "content": "package a\n\nfunc A() {}\n\nfunc B() {}\n\n// ...\n"}))
}

func TestWriteSaysHowManyLines(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.call("write", args{"file_path": e.path("n.txt"), "content": "x\ny\n"})
	requireOK(t, r)
	assert.Equal(t, "<path>"+e.path("n.txt")+"</path>\n<type>file</type>\n<content>\nCreated file\n</content>\nWrote 2 lines to a new file.", r.Text())
}

// The guard judges the old text as it streams from the provider, never holding the whole file:
// over a file read as a stream (at or above readStreamMinSize) its refusal is the one a file read
// whole gets, and neither the read nor the guard asks the provider for the whole text.
func TestWriteGuardStreamsTheOldText(t *testing.T) {
	cfg := toolfs.Config{}
	cfg.Defaults()
	cfg.ReadStreamMinSize = 64
	e := newEnv(t, envOptions{config: &cfg})
	e.writeFile(t, "big.txt", numbered(212))
	requireOK(t, e.call("read", args{"file_path": e.path("big.txt"), "offset": 21, "limit": 5}))
	e.fsys.take()
	write := args{"file_path": e.path("big.txt"), "content": "a\nb\nc\nd\ne\nf\n"}
	requireFailure(t, e.call("write", write), "Error: "+golden("write.drop.head", "path", e.path("big.txt"), "gone", "207", "total", "212")+"\n"+
		golden("write.drop.unseen", "read", "lines 21-25", "n", "207")+"\n"+golden("write.drop.next"), "FS_WOULD_DROP_LINES")
	ops := e.fsys.take()
	assert.Contains(t, ops, "streamText")
	assert.NotContains(t, ops, "readText")
	assert.Equal(t, numbered(212), e.readFile(t, "big.txt"), "nothing is written")

	// The placeholder rule too.
	old := "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n\nfunc C() int {\n\treturn 3\n}\n"
	e.writeFile(t, "a.go", old)
	requireOK(t, e.call("read", args{"file_path": e.path("a.go")}))
	e.fsys.take()
	requireFailure(t, e.call("write", args{"file_path": e.path("a.go"), "content": "package a\n\nfunc A() int {\n\treturn 10\n}\n\n// ... rest of file unchanged ...\n"}),
		"Error: "+golden("write.drop.head", "path", e.path("a.go"), "gone", "8", "total", "13")+"\n"+
			golden("write.drop.placeholder", "line", "7", "quoted_text", `"// ... rest of file unchanged ..."`)+"\n"+golden("write.drop.next"), "FS_WOULD_DROP_LINES")
	assert.NotContains(t, e.fsys.take(), "readText")

	// A word an elision uses ("other") without a placeholder, over a file read whole: nothing to
	// refuse, and the file is not read for it.
	requireOK(t, e.call("read", args{"file_path": e.path("a.go")}))
	e.fsys.take()
	requireOK(t, e.call("write", args{"file_path": e.path("a.go"), "content": "package a\n\n// A returns 1; the other functions are gone.\nfunc A() int { return 1 }\n"}))
	ops = e.fsys.take()
	assert.NotContains(t, ops, "streamText")
	assert.NotContains(t, ops, "readText")
}
