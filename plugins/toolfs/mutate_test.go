package toolfs_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func notRead(p string) string {
	return `Error: cannot modify "` + p + `": file has not been read — read the file, then retry`
}

func TestWriteCreateAndUpdate(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.call("write", args{"file_path": "new.txt", "content": "line one\nline two\n"})
	requireOK(t, r)
	assert.Equal(t, created(e.path("new.txt"), 2), r.Text())
	assert.JSONEq(t, `{"path":"`+e.path("new.txt")+`","operation":"create","before":null,"after":"line one\nline two\n"}`, valueJSON(t, r))
	assert.JSONEq(t, `{"diffs":[]}`, metaJSON(t, r))
	assert.Equal(t, "line one\nline two\n", e.readFile(t, "new.txt"))

	// The write observed the new version: a second write (an update) needs no read.
	r = e.call("write", args{"file_path": "new.txt", "content": "a\nb\nc\nNEW\nd\ne\nf\n"})
	requireOK(t, r)
	assert.Equal(t, updated(e.path("new.txt"), 7, 2), r.Text())

	// Overwrite after a read: meta holds the hunk, with the raw file_path.
	requireOK(t, e.call("read", args{"file_path": "new.txt"}))
	r = e.call("write", args{"file_path": "new.txt", "content": "a\nb\nc\nOLD\nd\ne\nf\n"})
	requireOK(t, r)
	assert.JSONEq(t, `{"diffs":[{"path":"new.txt","oldText":"a\nb\nc\nNEW\nd\ne\nf","newText":"a\nb\nc\nOLD\nd\ne\nf"}]}`, metaJSON(t, r))

	// An identical overwrite has no hunks; empty content is legal.
	requireOK(t, e.call("write", args{"file_path": "new.txt", "content": "a\nb\nc\nOLD\nd\ne\nf\n"}))
	r = e.call("write", args{"file_path": "empty.txt", "content": ""})
	requireOK(t, r)
	assert.Equal(t, "", e.readFile(t, "empty.txt"))
}

func TestWriteWithPolicy(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "original")
	// Unread overwrite: the provider's createIfAbsent collision, normalized for the model.
	requireFailure(t, e.call("write", args{"file_path": "a.txt", "content": "clobber"}), notRead(e.path("a.txt")), "FS_NOT_OBSERVED")
	assert.Equal(t, "original", e.readFile(t, "a.txt"))

	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	e.writeFile(t, "a.txt", "changed-externally")
	requireFailure(t, e.call("write", args{"file_path": "a.txt", "content": "replaced"}),
		`Error: cannot write "`+e.path("a.txt")+`": file changed since it was read — re-read the file, then retry`+
			"\nWhat changed since the read (- as read, + now):\n@@ -1,1 +1,1 @@\n-original\n+changed-externally\n"+shownNote, "FS_STALE_VERSION")

	// The remedy works: re-read, retry.
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	requireOK(t, e.call("write", args{"file_path": "a.txt", "content": "replaced"}))
	assert.Equal(t, "replaced", e.readFile(t, "a.txt"))

	// A call with no agent session can create but never overwrite.
	requireOK(t, e.callIn(nil, "write", args{"file_path": "b.txt", "content": "x"}))
	requireFailure(t, e.callIn(nil, "write", args{"file_path": "b.txt", "content": "y"}), notRead(e.path("b.txt")), "FS_NOT_OBSERVED")
}

func TestEditWithPolicy(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "hello world")
	// Unread edit: the policy's refusal, normalized for the model.
	requireFailure(t, e.call("edit", args{"file_path": "a.txt", "old_string": "world", "new_string": "there"}), notRead(e.path("a.txt")), "FS_NOT_OBSERVED")
	assert.Equal(t, "hello world", e.readFile(t, "a.txt"))

	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	r := e.call("edit", args{"file_path": "a.txt", "old_string": "world", "new_string": "there"})
	requireOK(t, r)
	assert.Equal(t, edited(e.path("a.txt")), r.Text())
	assert.JSONEq(t, `{"path":"`+e.path("a.txt")+`","before":"hello world","after":"hello there"}`, valueJSON(t, r))
	assert.JSONEq(t, `{"diffs":[{"path":"a.txt","oldText":"hello world","newText":"hello there"}]}`, metaJSON(t, r))
	assert.Equal(t, "hello there", e.readFile(t, "a.txt"))

	// The edit observed its result: edit again without a read; replace_all has its own sentence.
	e.writeFile(t, "b.txt", "a a a")
	requireOK(t, e.call("read", args{"file_path": "b.txt"}))
	requireFailure(t, e.call("edit", args{"file_path": "b.txt", "old_string": "a", "new_string": "b"}),
		`Error: old_string matched 3 times in "`+e.path("b.txt")+`"; provide a more specific old_string or set replace_all to true`+
			"\n"+matchesAt(golden("edit.next.matches_at.times", "lines", "1", "n", "3"), false), "FS_AMBIGUOUS_EDIT")
	r = e.call("edit", args{"file_path": "b.txt", "old_string": "a", "new_string": "b", "replace_all": true})
	requireOK(t, r)
	assert.Equal(t, editedAll(e.path("b.txt"), "\nReplaced 3 occurrences, at line 1 of the file now."), r.Text())
	assert.Equal(t, "b b b", e.readFile(t, "b.txt"))
	requireFailure(t, e.call("edit", args{"file_path": "b.txt", "old_string": "zzz", "new_string": "y"}),
		`Error: old_string was not found in "`+e.path("b.txt")+`"`, "FS_EDIT_NOT_FOUND")

	// A stale edit reports staleness before matching, with the re-read remedy.
	e.writeFile(t, "b.txt", "goodbye")
	requireFailure(t, e.call("edit", args{"file_path": "b.txt", "old_string": "b b", "new_string": "c"}),
		`Error: cannot edit "`+e.path("b.txt")+`": file changed since it was read — re-read the file, then retry`+
			"\nWhat changed since the read (- as read, + now):\n@@ -1,1 +1,1 @@\n-b b b\n+goodbye\n"+shownNote, "FS_STALE_VERSION")

	// write then edit without a read.
	requireOK(t, e.call("write", args{"file_path": "c.txt", "content": "one two"}))
	requireOK(t, e.call("edit", args{"file_path": "c.txt", "old_string": "two", "new_string": "three"}))
	assert.Equal(t, "one three", e.readFile(t, "c.txt"))
}

func TestWindowedReadAuthorizesEditAnywhere(t *testing.T) {
	e := newEnv(t, envOptions{})
	lines := make([]string, 20)
	for i := range lines {
		lines[i] = "line " + strings.Repeat("x", i)
	}
	e.writeFile(t, "a.txt", strings.Join(lines, "\n"))
	r := e.call("read", args{"file_path": "a.txt", "limit": 1})
	requireOK(t, r)
	assert.Contains(t, r.Text(), showing(1, 1, 20))
	requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": lines[12] + "\n", "new_string": "LINE 12\n"}))
}

func TestDeletedObservedTarget(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "original")
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	require.NoError(t, os.Remove(e.path("a.txt")))
	requireFailure(t, e.call("edit", args{"file_path": "a.txt", "old_string": "original", "new_string": "x"}),
		`Error: cannot edit "`+e.path("a.txt")+`": file changed since it was read — re-read the file, then retry`, "FS_STALE_VERSION")
	requireFailure(t, e.call("write", args{"file_path": "a.txt", "content": "premature"}),
		`Error: cannot write "`+e.path("a.txt")+`": file no longer exists — re-read the file, then retry`, "FS_STALE_VERSION")
	// The failed re-read records absence.
	requireFailure(t, e.call("read", args{"file_path": "a.txt"}), `Error: cannot read "`+e.path("a.txt")+`": not found`, "FS_NOT_FOUND")
	requireFailure(t, e.call("edit", args{"file_path": "a.txt", "old_string": "original", "new_string": "x"}),
		`Error: cannot edit "`+e.path("a.txt")+`": not found`, "FS_NOT_FOUND")
	requireOK(t, e.call("write", args{"file_path": "a.txt", "content": "fresh"}))
	assert.Equal(t, "fresh", e.readFile(t, "a.txt"))
}

func TestBareDeploymentIsUnconditional(t *testing.T) {
	e := newEnv(t, envOptions{bare: true})
	e.writeFile(t, "a.txt", "original")
	r := e.call("write", args{"file_path": "a.txt", "content": "clobbered"})
	requireOK(t, r)
	assert.Equal(t, updated(e.path("a.txt"), 1, 1), r.Text())
	assert.JSONEq(t, `{"diffs":[{"path":"a.txt","oldText":"original","newText":"clobbered"}]}`, metaJSON(t, r))
	requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": "clobbered", "new_string": "there"}))
	assert.Equal(t, "there", e.readFile(t, "a.txt"))
	requireFailure(t, e.call("edit", args{"file_path": "missing.txt", "old_string": "a", "new_string": "b"}),
		`Error: cannot edit "`+e.path("missing.txt")+`": file changed since it was read — re-read the file, then retry`, "FS_STALE_VERSION")
	requireFailure(t, e.call("edit", args{"file_path": "a.txt", "old_string": "absent", "new_string": "x"}),
		`Error: old_string was not found in "`+e.path("a.txt")+`"`, "FS_EDIT_NOT_FOUND")
	assert.Equal(t, []string{
		"resolve", "writeText(nil)", "resolve", "editText(nil)", "resolve", "editText(nil)", "resolve", "editText(nil)",
		"stat", "readText", // the near-miss search after the match failure
	}, e.fsys.take())
}

func TestMutationArgumentErrors(t *testing.T) {
	e := newEnv(t, envOptions{bare: true})
	cases := []struct {
		tool string
		args args
		text string
	}{
		{"write", args{"file_path": " ", "content": "x"}, argError("read.error.blank_path")},
		{"write", args{"file_path": "a.txt"}, `Error: invalid arguments: missing required property "content"`},
		{"edit", args{"file_path": "\t", "old_string": "a", "new_string": "b"}, argError("read.error.blank_path")},
		{"edit", args{"file_path": "a.txt", "old_string": "", "new_string": "b"}, argError("edit.error.old_string_empty")},
		{"edit", args{"file_path": "a.txt", "old_string": "x", "new_string": "x"}, argError("edit.error.same_strings")},
		{"edit", args{"file_path": "a.txt", "old_string": "x", "new_string": "y", "replace_all": "yes"}, `Error: invalid arguments: "replace_all" must be a boolean`},
	}
	for _, tc := range cases {
		r := e.call(tc.tool, tc.args)
		require.True(t, r.IsError)
		assert.Equal(t, tc.text, r.Text())
	}
	assert.Empty(t, e.fsys.take(), "argument errors come before any I/O")

	// Whitespace-only old_string is legal, and old/new differing only in line endings pass validation.
	e.writeFile(t, "w.txt", "a  b\r\n")
	requireOK(t, e.call("edit", args{"file_path": "w.txt", "old_string": "  ", "new_string": " "}))
	requireOK(t, e.call("edit", args{"file_path": "w.txt", "old_string": "a b\r\n", "new_string": "a b\n"}))
	// A camelCase replaceAll is an unknown key: ignored.
	e.writeFile(t, "r.txt", "q q")
	requireFailure(t, e.call("edit", args{"file_path": "r.txt", "old_string": "q", "new_string": "z", "replaceAll": true}),
		`Error: old_string matched 2 times in "`+e.path("r.txt")+`"; provide a more specific old_string or set replace_all to true`+
			"\n"+matchesAt(golden("edit.next.matches_at.times", "lines", "1", "n", "2"), false), "FS_AMBIGUOUS_EDIT")
}
