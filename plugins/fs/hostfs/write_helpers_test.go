package hostfs_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	cfs "github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// requireClean asserts the mutation left nothing behind: no staging
// directory or temp file anywhere under dir and an empty lock table.
func requireClean(t *testing.T, p *hostfs.Provider, dir string) {
	t.Helper()
	require.Empty(t, residue(t, dir), "staging residue")
	require.Zero(t, hostfs.LockCount(p), "lock table not empty")
}

// residue lists staging directories and temp files under dir.
func residue(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(d.Name(), ".tmpdir") || strings.HasSuffix(d.Name(), ".tmp") {
			found = append(found, path)
		}
		return nil
	})
	require.NoError(t, err)
	return found
}

// readDisk reads a file's bytes; as a user other than root, a file the test left unreadable is
// given its owner's read bit for the read and then its mode back.
func readDisk(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrPermission) {
		info, serr := os.Stat(path)
		require.NoError(t, serr)
		require.NoError(t, os.Chmod(path, info.Mode()|0o400))
		b, err = os.ReadFile(path)
		require.NoError(t, os.Chmod(path, info.Mode()))
	}
	require.NoError(t, err)
	return string(b)
}

func permOf(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	return fi.Mode().Perm()
}

func versionOf(t *testing.T, p *hostfs.Provider, tg cfs.Target) cfs.Version {
	t.Helper()
	info, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	require.NotNil(t, info)
	return info.Version
}

func strPtr(s string) *string { return &s }
