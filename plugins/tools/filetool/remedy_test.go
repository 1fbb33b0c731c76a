package filetool_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

func TestRemediate(t *testing.T) {
	plain := errors.New("boom")
	assert.Same(t, plain, filetool.Remediate(plain, "/p"))

	other := fs.OldStringNotFound("/p")
	assert.Same(t, other, filetool.Remediate(other, "/p"))
	absent := fs.EditNotFound("/p")
	assert.Same(t, absent, filetool.Remediate(absent, "/p"), "the policy's FS_NOT_FOUND is not remediated")

	stale := fs.WriteChanged("/p")
	got := filetool.Remediate(stale, "/p")
	assert.Equal(t, `cannot write "/p": file changed since it was read — re-read the file, then retry`, got.Error())
	assert.Equal(t, fs.CodeStaleVersion, fs.CodeOf(got))
	assert.ErrorIs(t, got, stale)

	for _, src := range []*fs.Error{fs.EditNotObserved("/p"), fs.OverwriteNotObserved("/p", nil)} {
		got := filetool.Remediate(src, "/p")
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
		assert.Equal(t, tc.want, filetool.SessionCwd(tc.cwd, tc.path), "cwd=%q path=%q", tc.cwd, tc.path)
	}
}
