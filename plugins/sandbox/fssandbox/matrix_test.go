package fssandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// Spec 2.7, the escape-attempt matrix under workspace-write, row by row. Each row prepares the
// world, attempts one write and checks the outcome and that nothing appeared outside.
func TestEscapeMatrix(t *testing.T) {
	type row struct {
		name    string
		prepare func(t *testing.T, w *world) (path string)
		intent  *fs.WriteIntent
		check   func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error)
	}
	denied := func(t *testing.T, w *world, path string, _ fs.WriteOutcome, err error) {
		requireDenied(t, err, path, sandbox.WorkspaceWrite)
	}
	rows := []row{
		{"ws/nested/ok.txt (parent missing)", func(t *testing.T, w *world) string {
			return filepath.Join(w.ws, "nested", "ok.txt")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			require.NoError(t, err)
			assert.Equal(t, fs.OperationCreate, out.Operation)
			assert.Equal(t, "content", readDisk(t, path))
		}},
		{"absolute out/escape.txt", func(t *testing.T, w *world) string {
			return filepath.Join(w.out, "escape.txt")
		}, nil, denied},
		{"ws/../sibling.txt", func(t *testing.T, w *world) string {
			return w.ws + "/../sibling.txt"
		}, nil, func(t *testing.T, w *world, path string, _ fs.WriteOutcome, err error) {
			requireDenied(t, err, filepath.Join(w.base, "sibling.txt"), sandbox.WorkspaceWrite)
			assert.NoFileExists(t, filepath.Join(w.base, "sibling.txt"))
		}},
		{"ws/link/f.txt, link -> out", func(t *testing.T, w *world) string {
			require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "link")))
			return filepath.Join(w.ws, "link", "f.txt")
		}, nil, denied},
		{"ws/link/newdir/deep.txt, link -> out", func(t *testing.T, w *world) string {
			require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "link")))
			return filepath.Join(w.ws, "link", "newdir", "deep.txt")
		}, nil, denied},
		{"ws/file-link -> out/file (exists)", func(t *testing.T, w *world) string {
			require.NoError(t, os.WriteFile(filepath.Join(w.out, "file"), []byte("outside"), 0o644))
			require.NoError(t, os.Symlink(filepath.Join(w.out, "file"), filepath.Join(w.ws, "file-link")))
			return filepath.Join(w.ws, "file-link")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			requireDenied(t, err, path, sandbox.WorkspaceWrite)
			assert.Equal(t, "outside", readDisk(t, filepath.Join(w.out, "file")))
		}},
		{"ws/dangling -> out/new (missing)", func(t *testing.T, w *world) string {
			require.NoError(t, os.Symlink(filepath.Join(w.out, "new"), filepath.Join(w.ws, "dangling")))
			return filepath.Join(w.ws, "dangling")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			require.NoError(t, err)
			fi, lerr := os.Lstat(path)
			require.NoError(t, lerr)
			assert.True(t, fi.Mode().IsRegular(), "the rename replaced the link with a regular file")
			assert.Equal(t, "content", readDisk(t, path))
		}},
		{"ws/dangling -> out/new with createIfAbsent", func(t *testing.T, w *world) string {
			require.NoError(t, os.Symlink(filepath.Join(w.out, "new"), filepath.Join(w.ws, "dangling")))
			return filepath.Join(w.ws, "dangling")
		}, fs.CreateIfAbsent(), func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			requireCode(t, err, fs.CodeNotRegularFile)
			fi, lerr := os.Lstat(path)
			require.NoError(t, lerr)
			assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link is left alone")
		}},
		{"ws/hard = hard link to out/file", func(t *testing.T, w *world) string {
			require.NoError(t, os.WriteFile(filepath.Join(w.out, "file"), []byte("outside"), 0o644))
			require.NoError(t, os.Link(filepath.Join(w.out, "file"), filepath.Join(w.ws, "hard")))
			return filepath.Join(w.ws, "hard")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			fe := requireCode(t, err, fs.CodeIOError) // two links: never replaced (docs/fs.md)
			assert.Contains(t, fe.Message, "it has 2 hard links")
			assert.Equal(t, "outside", readDisk(t, path))
			assert.Equal(t, "outside", readDisk(t, filepath.Join(w.out, "file")), "the outside inode is unchanged")
			a, _ := os.Stat(path)
			b, _ := os.Stat(filepath.Join(w.out, "file"))
			assert.True(t, os.SameFile(a, b), "still one file")
		}},
		{"out/link-in -> ws/file", func(t *testing.T, w *world) string {
			require.NoError(t, os.WriteFile(filepath.Join(w.ws, "file"), []byte("old"), 0o644))
			require.NoError(t, os.Symlink(filepath.Join(w.ws, "file"), filepath.Join(w.out, "link-in")))
			return filepath.Join(w.out, "link-in")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			require.NoError(t, err, "the identity is inside")
			assert.Equal(t, "content", readDisk(t, filepath.Join(w.ws, "file")))
			fi, lerr := os.Lstat(path)
			require.NoError(t, lerr)
			assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link is kept")
		}},
		{"ws/link/../x.txt, link -> out/d", func(t *testing.T, w *world) string {
			require.NoError(t, os.Mkdir(filepath.Join(w.out, "d"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(w.out, "d"), filepath.Join(w.ws, "link")))
			return w.ws + "/link/../x.txt"
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			require.NoError(t, err, "lexical: ws/x.txt")
			assert.Equal(t, "content", readDisk(t, filepath.Join(w.ws, "x.txt")))
			assert.NoFileExists(t, filepath.Join(w.out, "x.txt"))
		}},
		{"a path under /tmp", func(t *testing.T, w *world) string {
			dir, err := os.MkdirTemp("/tmp", "cordon-fssbx-")
			require.NoError(t, err)
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			return filepath.Join(dir, "sub", "t.txt")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			require.NoError(t, err)
			assert.Equal(t, "content", readDisk(t, path))
		}},
		{"a path under $TMPDIR", func(t *testing.T, w *world) string {
			tmp := filepath.Join(w.base, "mytmp")
			require.NoError(t, os.Mkdir(tmp, 0o755))
			t.Setenv("TMPDIR", tmp)
			return filepath.Join(tmp, "t.txt")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			require.NoError(t, err)
			assert.Equal(t, "content", readDisk(t, path))
		}},
		{"ws itself", func(t *testing.T, w *world) string {
			return w.ws
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			requireCode(t, err, fs.CodeNotRegularFile)
		}},
		{"sibling prefix ws2", func(t *testing.T, w *world) string {
			require.NoError(t, os.Mkdir(w.ws+"2", 0o755))
			return filepath.Join(w.ws+"2", "x.txt")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			requireDenied(t, err, path, sandbox.WorkspaceWrite)
			assert.Empty(t, tree(t, w.ws+"2"))
		}},
		{"sibling prefix ws2 through a missing parent", func(t *testing.T, w *world) string {
			return filepath.Join(w.ws+"2", "x.txt")
		}, nil, func(t *testing.T, w *world, path string, out fs.WriteOutcome, err error) {
			requireDenied(t, err, path, sandbox.WorkspaceWrite)
			assert.NoDirExists(t, w.ws+"2", "no parent created on a denial")
		}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			w := newWorld(t, sandbox.WorkspaceWrite, nil)
			path := r.prepare(t, w)
			before := tree(t, w.out)
			out, err := w.fs.WriteText(w.ctx, w.target(t, path), "content", r.intent)
			r.check(t, w, path, out, err)
			assert.Equal(t, before, tree(t, w.out), "nothing appeared or vanished outside")
			requireNoResidue(t, w.ws)
		})
	}
}

// Spec 2.7 "Workspace root configured as /": every path on that volume.
func TestEscapeMatrixFilesystemRoot(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/"}), w.target(t, filepath.Join(w.out, "any.txt")), "x", nil)
	require.NoError(t, err)
	assert.Equal(t, "x", readDisk(t, filepath.Join(w.out, "any.txt")))
}

// Spec 2.7 "Ancestor symlink swapped after the tool resolved": judged on the fresh key, both
// directions. A target resolved while ws/d was a real directory, written after d became a
// link out, is denied; one resolved while d pointed out, written after d became real, lands.
func TestAncestorSwappedAfterResolve(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	d := filepath.Join(w.ws, "d")
	require.NoError(t, os.Mkdir(d, 0o755))
	tg := w.target(t, filepath.Join(d, "f.txt"))
	require.NoError(t, os.Rename(d, d+".real"))
	require.NoError(t, os.Symlink(w.out, d))
	_, err := w.fs.WriteText(w.ctx, tg, "x", nil)
	requireDenied(t, err, tg.DisplayPath, sandbox.WorkspaceWrite)
	assert.Empty(t, tree(t, w.out))

	tg = w.target(t, filepath.Join(d, "g.txt"))
	require.Equal(t, filepath.Join(w.out, "g.txt"), string(tg.Key), "resolved through the link")
	require.NoError(t, os.Remove(d))
	require.NoError(t, os.Mkdir(d, 0o755))
	_, err = w.fs.WriteText(w.ctx, tg, "y", nil)
	require.NoError(t, err)
	assert.Equal(t, "y", readDisk(t, filepath.Join(d, "g.txt")))
	assert.Empty(t, tree(t, w.out))
}

// Spec 2.8: what each mode may write; reading is allowed everywhere in every mode.
func TestModesTable(t *testing.T) {
	cases := []struct {
		mode          sandbox.Mode
		inside, other bool // may write ws/x, out/x
	}{
		{sandbox.ReadOnly, false, false},
		{sandbox.WorkspaceWrite, true, false},
		{sandbox.DangerFullAccess, true, true},
	}
	for _, c := range cases {
		t.Run(string(c.mode), func(t *testing.T) {
			w := newWorld(t, c.mode, nil)
			for _, dir := range []string{w.ws, w.out} {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "r.txt"), []byte("readable"), 0o644))
			}
			for dir, allowed := range map[string]bool{w.ws: c.inside, w.out: c.other} {
				path := filepath.Join(dir, "x.txt")
				err := w.write(t, path, "x")
				eerr := w.edit(t, filepath.Join(dir, "r.txt"), "readable", "edited")
				if allowed {
					assert.NoError(t, err, path)
					assert.NoError(t, eerr, path)
				} else {
					requireDenied(t, err, path, c.mode)
					requireDenied(t, eerr, filepath.Join(dir, "r.txt"), c.mode)
					assert.NoFileExists(t, path)
				}
			}
			assertReadsEverywhere(t, w)
		})
	}
}

// assertReadsEverywhere runs every read primitive inside and outside the workspace.
func assertReadsEverywhere(t *testing.T, w *world) {
	t.Helper()
	for _, dir := range []string{w.ws, w.out} {
		file := w.target(t, filepath.Join(dir, "r.txt"))
		read, err := w.fs.ReadText(w.ctx, file)
		require.NoError(t, err)
		text := read.Text
		assert.Contains(t, []string{"readable", "edited"}, text)
		b, err := w.fs.ReadBytes(w.ctx, file, 100)
		require.NoError(t, err)
		assert.Equal(t, text, string(b))
		seq, err := w.fs.StreamText(w.ctx, file)
		require.NoError(t, err)
		var streamed string
		for chunk, err := range seq {
			require.NoError(t, err)
			streamed += chunk
		}
		assert.Equal(t, text, streamed)
		info, err := w.fs.Stat(w.ctx, file)
		require.NoError(t, err)
		require.NotNil(t, info)
		pinfo, err := w.fs.Lstat(w.ctx, filepath.Join(dir, "r.txt"), fs.LstatOptions{})
		require.NoError(t, err)
		require.NotNil(t, pinfo)
		entries, err := w.fs.ListDir(w.ctx, w.target(t, dir))
		require.NoError(t, err)
		assert.NotEmpty(t, entries)
		assert.True(t, w.fs.Contains(w.target(t, dir), file))
		assert.Equal(t, string(file.Key), w.fs.ProcessPath(file))
		assert.Equal(t, "file://"+string(file.Key), w.fs.FileURL(file))
	}
}

// Spec 2.9: the provider's texts, verbatim, for write and edit (the verb is always "write"),
// naming the mode stamped on the call.
func TestDenialTexts(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	inside := filepath.Join(w.ws, "a.txt")
	require.NoError(t, os.WriteFile(inside, []byte("a"), 0o644))
	outside := filepath.Join(w.out, "b.txt")
	require.NoError(t, os.WriteFile(outside, []byte("b"), 0o644))

	fe := requireCode(t, w.write(t, inside, "x"), fs.CodeSandboxDenied)
	assert.Equal(t, `cannot write "`+inside+`": file access denied under read-only mode`, fe.Message)
	fe = requireCode(t, w.edit(t, inside, "a", "x"), fs.CodeSandboxDenied)
	assert.Equal(t, `cannot write "`+inside+`": file access denied under read-only mode`, fe.Message)

	ww := w.policyFor(sandbox.WorkspaceWrite)
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, ww), w.target(t, outside), "x", nil)
	fe = requireCode(t, err, fs.CodeSandboxDenied)
	assert.Equal(t, `cannot write "`+outside+`": file access denied under workspace-write mode`, fe.Message)
	_, err = w.fs.EditText(sandbox.WithPolicy(w.ctx, ww), w.target(t, outside), fs.EditRequest{OldString: "b", NewString: "x"}, nil)
	fe = requireCode(t, err, fs.CodeSandboxDenied)
	assert.Equal(t, `cannot write "`+outside+`": file access denied under workspace-write mode`, fe.Message)

	// The message names the caller's display path, not the key.
	require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "link")))
	spelled := filepath.Join(w.ws, "link", "b.txt")
	_, err = w.fs.WriteText(sandbox.WithPolicy(w.ctx, ww), w.target(t, spelled), "x", nil)
	requireDenied(t, err, spelled, sandbox.WorkspaceWrite)

	assert.Equal(t, `cannot write "/p": file access denied under read-only mode`, fssandbox.Denied("/p", sandbox.ReadOnly, nil).Message)
	assert.Equal(t, "a", readDisk(t, inside))
	assert.Equal(t, "b", readDisk(t, outside))
}

// Spec 6.1 item 1: under read-only the denial comes before any I/O and does not depend on the
// target: no parents, no staging, no resolution of a path that cannot resolve.
func TestReadOnlyDeniesBeforeIO(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	deep := filepath.Join(w.ws, "a", "b", "c.txt")
	requireDenied(t, w.write(t, deep, "x"), deep, sandbox.ReadOnly)
	assert.Empty(t, tree(t, w.ws))
	// A target that no Resolve could produce is still refused with the sandbox text.
	foreign := fs.Target{Key: "relative/key", DisplayPath: "/nowhere/f"}
	_, err := w.fs.WriteText(w.ctx, foreign, "x", nil)
	requireDenied(t, err, "/nowhere/f", sandbox.ReadOnly)
}

// Spec 2.4 step 1 and 6.1 item 18: a call without a policy is fenced at the policy service's
// agentless resolution, taken at call time (a later change of the deployment default applies).
func TestAgentlessCallsUseThePolicyService(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, w.write(t, filepath.Join(w.ws, "a.txt"), "x"))
	assert.Equal(t, 1, w.policy.agentless)
	requireDenied(t, w.write(t, filepath.Join(w.out, "a.txt"), "x"), filepath.Join(w.out, "a.txt"), sandbox.WorkspaceWrite)
	w.policy.setDefault(sandbox.ReadOnly)
	requireDenied(t, w.write(t, filepath.Join(w.ws, "b.txt"), "x"), filepath.Join(w.ws, "b.txt"), sandbox.ReadOnly)
	w.policy.setDefault(sandbox.DangerFullAccess)
	require.NoError(t, w.write(t, filepath.Join(w.out, "c.txt"), "x"))
	assert.Equal(t, 4, w.policy.agentless)

	// The configured root, not the provider's cwd, is the workspace of agentless calls.
	w.policy.setDefault(sandbox.WorkspaceWrite)
	w.policy.root = w.out
	require.NoError(t, w.write(t, filepath.Join(w.out, "d.txt"), "x"))
	requireDenied(t, w.write(t, filepath.Join(w.ws, "d.txt"), "x"), filepath.Join(w.ws, "d.txt"), sandbox.WorkspaceWrite)

	// A call that carries a policy does not ask the service.
	n := w.policy.agentless
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, w.policyFor(sandbox.WorkspaceWrite)), w.target(t, filepath.Join(w.ws, "e.txt")), "x", nil)
	require.NoError(t, err)
	assert.Equal(t, n, w.policy.agentless)
}

// A policy naming an unknown mode fails closed.
func TestUnknownModeIsDenied(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := filepath.Join(w.ws, "x.txt")
	for _, m := range []sandbox.Mode{"", "yolo"} {
		_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, &sandbox.CallPolicy{Mode: m, WorkspaceRoot: w.ws}), w.target(t, path), "x", nil)
		fe := requireCode(t, err, fs.CodeSandboxDenied)
		assert.Contains(t, fe.Message, "unknown sandbox mode")
	}
	assert.NoFileExists(t, path)
}

// A workspace root that does not exist contains nothing, and is never created.
func TestMissingWorkspaceRoot(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gone := filepath.Join(w.base, "gone")
	path := filepath.Join(gone, "x.txt")
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: gone}), w.target(t, path), "x", nil)
	requireDenied(t, err, path, sandbox.WorkspaceWrite)
	assert.NoDirExists(t, gone)
}

// Resolution errors of the fresh re-resolution propagate unchanged (spec 2.4.4.1).
func TestFreshResolutionErrorsPropagate(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.WriteFile(filepath.Join(w.ws, "blk"), []byte("file"), 0o644))
	path := filepath.Join(w.ws, "blk", "x.txt")
	tg := fs.Target{Key: fs.TargetKey(path), DisplayPath: path}
	_, err := w.fs.WriteText(w.ctx, tg, "x", nil)
	fe := requireCode(t, err, fs.CodeNotFound)
	assert.Equal(t, `cannot resolve "`+path+`": a parent path segment is not a directory`, fe.Message)
	_, err = w.fs.WriteText(w.ctx, fs.Target{Key: "/x", DisplayPath: " "}, "x", nil)
	assert.True(t, errors.Is(err, fs.ErrNotFound), "%v", err)
}
