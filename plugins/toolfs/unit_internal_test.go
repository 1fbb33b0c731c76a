package toolfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRemediate(t *testing.T) {
	plain := errors.New("boom")
	assert.Same(t, plain, remediate(plain, "/p"))

	other := fs.OldStringNotFound("/p")
	assert.Same(t, other, remediate(other, "/p"))
	absent := fs.EditNotFound("/p")
	assert.Same(t, absent, remediate(absent, "/p"), "the policy's FS_NOT_FOUND is not remediated")

	stale := fs.WriteChanged("/p")
	got := remediate(stale, "/p")
	assert.Equal(t, `cannot write "/p": file changed since it was read — re-read the file, then retry`, got.Error())
	assert.Equal(t, fs.CodeStaleVersion, fs.CodeOf(got))
	assert.ErrorIs(t, got, stale)

	for _, src := range []*fs.Error{fs.EditNotObserved("/p"), fs.OverwriteNotObserved("/p", nil)} {
		got := remediate(src, "/p")
		assert.Equal(t, `cannot modify "/p": file has not been read — read the file, then retry`, got.Error())
		assert.Equal(t, fs.CodeNotObserved, fs.CodeOf(got))
		assert.ErrorIs(t, got, src, "the original error stays reachable as the cause")
		var fe *fs.Error
		require.ErrorAs(t, got, &fe)
		assert.Equal(t, "FsError", fe.Name())
	}
}

func TestSessionCwdRule(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	physical := filepath.Join(dir, "physical", "sub")
	require.NoError(t, os.MkdirAll(physical, 0o755))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(physical, link))

	cases := []struct {
		cwd, path, want string
	}{
		{"", "file.txt", ""},
		{"", "../x", ""},
		{"/p", "file.txt", "/p"},
		{link, "child.txt", link},
		{link, "a/..b/c", link},
		{link, "../parent.txt", physical},
		{link, `..\parent.txt`, physical},
		{link, "x/..", physical},
		{link + "/..", "f", filepath.Join(dir, "physical")},
		{"/definitely/missing/..", "f", "/definitely/missing/.."},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, sessionCwd(tc.cwd, tc.path), "cwd=%q path=%q", tc.cwd, tc.path)
	}
}

func TestLangFromPath(t *testing.T) {
	cases := map[string]string{
		"/a/b.ts": "ts", "x.TSX": "tsx", "a.mjs": "js", "a.jsonc": "json", "a.kt": "kotlin",
		"a.markdown": "md", "a.yml": "yaml", "a.h": "c", "a.hpp": "cpp", `C:\dir\file.Go`: "go",
		"notes": "", ".gitignore": "", "/dir.ts/file": "", "a.constructor": "", "a.__proto__": "",
		"a.": "", "a.unknown": "",
	}
	for p, want := range cases {
		assert.Equal(t, want, LangFromPath(p), p)
	}
}

func TestRenderReadFooters(t *testing.T) {
	line := []Line{{Number: 1, Text: "x"}}
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\n1: x\n\n(Output capped. Showing lines 1-1. Use offset=2 to continue.)\n</content>",
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: line, TotalLines: 99}, 5))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\n1: x\n\n(Showing lines 1-1 of 99. Use offset=2 to continue.)\n</content>",
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: line, TotalLines: 99}, 1))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\n(End of file - total 0 lines)\n</content>",
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: []Line{}, TotalLines: 0}, 5))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\nCreated file\n</content>", RenderWrite(WriteValue{Path: "/f", Operation: "create"}))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\nUpdated file\n</content>", RenderWrite(WriteValue{Path: "/f", Operation: "update"}))
}
