package hostfs_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Reference: "honors a signal aborted while resolution is in flight" and
// "rejects stat and lstat when their signals abort while the metadata probes
// are in flight": a cancellation that lands during the probe is reported as
// FS_ABORTED, not as the probe's result.
func TestMetadataCancelledInFlight(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "slow.txt"), "hello")
	tg := resolve(t, p, "slow.txt")
	_, err := p.Resolve(countdown(1), "slow.txt", fs.ResolveOptions{})
	requireFsError(t, err, fs.CodeAborted, "resolve aborted")
	_, err = p.Resolve(countdown(1), "missing/x.txt", fs.ResolveOptions{})
	requireFsError(t, err, fs.CodeAborted, "resolve aborted")
	_, err = p.Stat(countdown(1), tg)
	requireFsError(t, err, fs.CodeAborted, "stat aborted")
	_, err = p.Lstat(countdown(1), "slow.txt", fs.LstatOptions{})
	requireFsError(t, err, fs.CodeAborted, "lstat aborted")
}

// Reference: "translates a mid-read AbortError into FS_ABORTED" (readText,
// readBytes, listDir): cancelling at each checkpoint in turn fails with the
// verb's FS_ABORTED until the call gets through.
func TestReadsCancelAtEveryCheckpoint(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "d", "a.txt"), "one\ntwo")
	writeFile(t, filepath.Join(dir, "d", "b.txt"), "three")
	file := resolve(t, p, "d/a.txt")
	list := resolve(t, p, "d")
	cases := []struct {
		name, msg string
		run       func(ctx context.Context) error
	}{
		{"ReadText", "read aborted", func(ctx context.Context) error { _, err := p.ReadText(ctx, file); return err }},
		{"ReadBytes", "read aborted", func(ctx context.Context) error { _, err := p.ReadBytes(ctx, file, 100); return err }},
		{"StreamText", "read aborted", func(ctx context.Context) error { _, err := streamAll(t, p, ctx, file); return err }},
		{"ListDir", "list aborted", func(ctx context.Context) error { _, err := p.ListDir(ctx, list); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for n := 0; ; n++ {
				err := c.run(countdown(n))
				if err == nil {
					require.Greater(t, n, 1, "at least two checkpoints")
					return
				}
				requireFsError(t, err, fs.CodeAborted, c.msg)
				require.Less(t, n, 50, "the call never got through")
			}
		})
	}
}

// Reference: "reports a socket/special file as type \"other\"".
func TestSocketIsOther(t *testing.T) {
	dir, err := os.MkdirTemp("", "sock") // short: a socket path has a ~104-byte limit
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Skipf("unix sockets unavailable: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	p, _ := newProvider(t)
	tg, err := p.Resolve(context.Background(), filepath.Join(dir, "s"), fs.ResolveOptions{})
	require.NoError(t, err)
	info, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	require.NotNil(t, info)
	assert.Equal(t, fs.TypeOther, info.Type)
	_, err = p.ReadText(context.Background(), tg)
	requireFsError(t, err, fs.CodeNotRegularFile, `cannot read "`+tg.DisplayPath+`": not a regular file`)
	_, err = p.WriteText(context.Background(), tg, "x", nil)
	requireFsError(t, err, fs.CodeNotRegularFile, `cannot write "`+tg.DisplayPath+`": not a regular file`)
	entries, err := p.ListDir(context.Background(), resolve(t, p, dir))
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, fs.TypeOther, entries[0].Type)
	assert.False(t, entries[0].HasSize)
}

// Reference probeNoFollow: "reports symlinks without following them" (with a
// version and a positive size) and "returns null for a missing path or a
// file-valued ancestor path segment".
func TestLstatSymlinkVersionAndFileAncestor(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "real.txt"), "hi")
	require.NoError(t, os.Symlink(filepath.Join(dir, "real.txt"), filepath.Join(dir, "link.txt")))
	info, err := p.Lstat(context.Background(), "link.txt", fs.LstatOptions{})
	require.NoError(t, err)
	require.NotNil(t, info)
	assert.Equal(t, fs.TypeSymlink, info.Type)
	assert.Regexp(t, versionPattern, string(info.Version))
	assert.Positive(t, info.Size)
	info, err = p.Lstat(context.Background(), "real.txt/child.txt", fs.LstatOptions{})
	require.NoError(t, err)
	assert.Nil(t, info)
}

// Reference: "a stale change is detected across both paths" (symlink identity).
func TestStaleChangeDetectedThroughAlias(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "real.txt"), "hello")
	require.NoError(t, os.Symlink(filepath.Join(dir, "real.txt"), filepath.Join(dir, "link.txt")))
	stale := versionOf(t, p, resolve(t, p, "real.txt"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "real.txt"), []byte("changed"), 0o644))
	viaLink := resolve(t, p, "link.txt")
	_, err := p.EditText(context.Background(), viaLink, edit("hello", "bye"), &fs.EditGuard{Version: stale})
	requireFsError(t, err, fs.CodeStaleVersion, `cannot edit "`+viaLink.DisplayPath+`": file changed since it was read`)
	_, err = p.WriteText(context.Background(), viaLink, "bye", fs.ReplaceIfVersion(stale))
	requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+viaLink.DisplayPath+`": file changed since it was read`)
	assert.Equal(t, "changed", readDisk(t, filepath.Join(dir, "real.txt")))
}

// Reference: "translates child permission failures into FS_PERMISSION_DENIED"
// (a child symlink into a mode-000 directory). Root bypasses mode bits.
func TestListDirChildPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root bypasses directory permissions")
	}
	p, dir := newProvider(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "protected", "secret"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "listed"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "protected", "secret"), filepath.Join(dir, "listed", "secret-link")))
	require.NoError(t, os.Chmod(filepath.Join(dir, "protected"), 0o000))
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(dir, "protected"), 0o755) })
	_, err := p.ListDir(context.Background(), resolve(t, p, "listed"))
	requireFsError(t, err, fs.CodePermissionDenied, `cannot list "`+dir+`/listed/secret-link": permission denied`)
}
