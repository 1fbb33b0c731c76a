package fssandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// secret is the content of every file outside the roots: a test fails if it is ever read.
const secret = "SECRET-OUTSIDE"

// confinedReads is a world whose calls carry the safe default's policy (docs/sandbox.md
// "Roots"): workspace-write, reads confined to the roots, no temp roots, and base/ro as a
// read-only root.
func confinedReads(t *testing.T) (*world, string) {
	t.Helper()
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	ro := filepath.Join(w.base, "ro")
	require.NoError(t, os.Mkdir(ro, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ro, "r.txt"), []byte("read-only root\n"), 0o644))
	w.ctx = sandbox.WithPolicy(context.Background(), &sandbox.CallPolicy{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: w.ws, ReadOnlyRoots: []string{ro},
		ConfineReads: true, NoTempRoots: true,
	})
	require.NoError(t, os.WriteFile(filepath.Join(w.out, "s.txt"), []byte(secret+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(w.ws, "in.txt"), []byte("inside\n"), 0o644))
	return w, ro
}

// readEvery reads path with every read primitive and returns what each gave back and its error.
func readEvery(w *world, path string) (string, []error) {
	var got strings.Builder
	var errs []error
	tg, err := w.fs.Resolve(w.ctx, path, fs.ResolveOptions{})
	if err != nil {
		return "", []error{err}
	}
	if _, err := w.fs.Stat(w.ctx, tg); err != nil {
		errs = append(errs, err)
	}
	if r, err := w.fs.ReadText(w.ctx, tg); err != nil {
		errs = append(errs, err)
	} else {
		got.WriteString(r.Text)
	}
	if b, err := w.fs.ReadBytes(w.ctx, tg, 1<<20); err != nil {
		errs = append(errs, err)
	} else {
		got.Write(b)
	}
	if seq, err := w.fs.StreamText(w.ctx, tg); err != nil {
		errs = append(errs, err)
	} else {
		for s, err := range seq {
			if err != nil {
				errs = append(errs, err)
				break
			}
			got.WriteString(s)
		}
	}
	if _, err := w.fs.Grep(w.ctx, tg, fs.GrepQuery{Pattern: "SECRET", MaxLineBytes: 1000}, func(m fs.LineMatch) error {
		got.Write(m.Text)
		return nil
	}); err != nil {
		errs = append(errs, err)
	}
	return got.String(), errs
}

func TestConfinedReadsRefuseEveryWayOut(t *testing.T) {
	w, ro := confinedReads(t)
	require.NoError(t, os.Symlink(filepath.Join(w.out, "s.txt"), filepath.Join(w.ws, "file-link")))
	require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "dir-link")))
	ways := []string{
		filepath.Join(w.out, "s.txt"),
		filepath.Join(w.ws, "..", "out", "s.txt"),
		"../out/s.txt",
		filepath.Join(w.ws, "file-link"),
		filepath.Join(w.ws, "dir-link", "s.txt"),
		"/proc/self/root" + filepath.Join(w.out, "s.txt"),
		filepath.Join("/proc/self/cwd", "..", "out", "s.txt"),
	}
	for _, p := range ways {
		got, errs := readEvery(w, p)
		assert.NotContains(t, got, secret, p)
		require.NotEmpty(t, errs, p)
		for _, err := range errs {
			fe := requireCode(t, err, fs.CodeSandboxDenied)
			assert.True(t, strings.HasPrefix(fe.Message, "[sandbox: file access denied under workspace-write mode]\n"), fe.Message)
			assert.Contains(t, fe.Message, w.ws, "the denial names the roots")
			assert.Contains(t, fe.Message, ro+" (read-only)")
			assert.Contains(t, fe.Message, "--root DIR")
		}
	}
	// Listing and searching the outside directory are refused too.
	out := w.target(t, w.out)
	_, err := w.fs.ListDir(w.ctx, out)
	requireCode(t, err, fs.CodeSandboxDenied)
	_, err = w.fs.Glob(w.ctx, out, fs.GlobQuery{Pattern: "**"})
	requireCode(t, err, fs.CodeSandboxDenied)
	assert.Empty(t, w.fs.TextCharset(w.ctx, w.target(t, filepath.Join(w.out, "s.txt"))))

	// Inside and under the read-only root, every primitive reads.
	got, errs := readEvery(w, "in.txt")
	assert.Empty(t, errs)
	assert.Contains(t, got, "inside")
	r, err := w.fs.ReadText(w.ctx, w.target(t, filepath.Join(ro, "r.txt")))
	require.NoError(t, err)
	assert.Equal(t, "read-only root\n", r.Text)
	// A read-only root is never written.
	requireCode(t, w.write(t, filepath.Join(ro, "r.txt"), "x"), fs.CodeSandboxDenied)
	assert.Equal(t, "read-only root\n", readDisk(t, filepath.Join(ro, "r.txt")))
}

func TestConfinedSearchNeverListsOrOpensOutside(t *testing.T) {
	w, _ := confinedReads(t)
	require.NoError(t, os.Symlink(filepath.Join(w.out, "s.txt"), filepath.Join(w.ws, "file-link")))
	require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "dir-link")))
	require.NoError(t, os.WriteFile(filepath.Join(w.ws, "inner.txt"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(w.ws, "inner.txt"), filepath.Join(w.ws, "inner-link")))
	ws := w.target(t, w.ws)
	g, err := w.fs.Glob(w.ctx, ws, fs.GlobQuery{Pattern: "**"})
	require.NoError(t, err)
	var rels []string
	for _, f := range g.Files {
		rels = append(rels, f.Rel)
	}
	assert.ElementsMatch(t, []string{"in.txt", "inner.txt", "inner-link"}, rels, "a link whose target leaves the root is not listed")
	var lines []string
	_, err = w.fs.Grep(w.ctx, ws, fs.GrepQuery{Pattern: "SECRET", MaxLineBytes: 1000}, func(m fs.LineMatch) error {
		lines = append(lines, string(m.Text))
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, lines)
}

// TestConfinedGrepReadsNoEditorConfigAbove: confined calls decide charsets from .editorconfig
// files beneath the root only; one above the workspace (here declaring UTF-16) is never read, so
// the workspace's UTF-8 file is read and matched as UTF-8 text, and a new file is written in UTF-8.
func TestConfinedGrepReadsNoEditorConfigAbove(t *testing.T) {
	w, _ := confinedReads(t)
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(w.ws), ".editorconfig"), []byte("root = true\n[*]\ncharset = utf-16le\n"), 0o644))
	got, errs := readEvery(w, "in.txt")
	assert.Empty(t, errs)
	assert.Contains(t, got, "inside\n")
	require.NoError(t, w.write(t, filepath.Join(w.ws, "new.txt"), "fresh\n"))
	assert.Equal(t, "fresh\n", readDisk(t, filepath.Join(w.ws, "new.txt")))
	var lines []string
	_, err := w.fs.Grep(w.ctx, w.target(t, w.ws), fs.GrepQuery{Pattern: "inside", MaxLineBytes: 1000}, func(m fs.LineMatch) error {
		lines = append(lines, string(m.Text))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"inside"}, lines)
}
