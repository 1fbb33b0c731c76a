//go:build linux

package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// An existing protected entry is recognized by identity (device and inode) too: a directory that
// is the same directory under another name (a bind mount here; a case or normalization alias on
// other file systems) is protected like the entry itself. Needs mount privileges.
func TestProtectedAliasByIdentity(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	git := filepath.Join(w.ws, ".git")
	require.NoError(t, os.Mkdir(git, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(git, "config"), []byte("[core]"), 0o644))
	alias := filepath.Join(w.ws, "alias")
	require.NoError(t, os.Mkdir(alias, 0o755))
	if err := unix.Mount(git, alias, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("bind mount unavailable: %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(alias, unix.MNT_DETACH) })
	for _, rel := range []string{"alias/config", "alias/hooks/pre-commit"} {
		path := filepath.Join(w.ws, rel)
		fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath, rel)
	}
	fe := requireDenied(t, w.edit(t, filepath.Join(alias, "config"), "[core]", "[evil]"), filepath.Join(alias, "config"), sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	assert.Equal(t, "[core]", readDisk(t, filepath.Join(git, "config")))
	assert.Equal(t, []string{"config"}, entriesOf(t, git))
}
