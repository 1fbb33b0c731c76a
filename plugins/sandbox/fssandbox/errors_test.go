package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// A writable root that cannot be examined (the workspace root is a symlink loop) fails the fence
// FS_IO_ERROR naming the file the call asked for, never as contained and never raw; nothing is
// written.
func TestUnexaminableRootIsCoded(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	loop := filepath.Join(w.base, "loop")
	require.NoError(t, os.Symlink("loop", loop))
	pol := &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: loop}
	tg := w.target(t, filepath.Join(w.out, "x.txt"))
	reason := `: too many levels of symbolic links — a symbolic link on the path leads back to itself; use a path without the loop`
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, pol), tg, "x", nil)
	fe := requireCode(t, err, fs.CodeIOError)
	assert.Equal(t, `cannot write "`+tg.DisplayPath+`"`+reason, fe.Message)
	assert.ErrorIs(t, err, unix.ELOOP)
	_, err = w.fs.EditText(sandbox.WithPolicy(w.ctx, pol), tg, fs.EditRequest{OldString: "a", NewString: "b"}, nil)
	fe = requireCode(t, err, fs.CodeIOError)
	assert.Equal(t, `cannot edit "`+tg.DisplayPath+`"`+reason, fe.Message)
	assert.Empty(t, tree(t, w.out))
}
