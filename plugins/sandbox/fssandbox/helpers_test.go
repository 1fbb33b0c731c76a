package fssandbox_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// fakePolicy is a minimal in-test sandbox.Policy: a deployment default, a configured root, no
// session overrides. It counts the agentless resolutions the provider asks for.
type fakePolicy struct {
	mu        sync.Mutex
	mode      sandbox.Mode
	root      string
	agentless int
}

var _ sandbox.Policy = (*fakePolicy)(nil)

func (f *fakePolicy) DefaultMode() sandbox.Mode {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mode
}

func (f *fakePolicy) WorkspaceRoot() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.root
}

func (f *fakePolicy) Resolve(s sandbox.Session, explicit sandbox.Mode) sandbox.CallPolicy {
	f.mu.Lock()
	defer f.mu.Unlock()
	mode := explicit
	if mode == "" {
		mode = f.mode
	}
	root := f.root
	if s == nil && explicit == "" {
		f.agentless++
	}
	if s != nil && s.Cwd() != "" {
		root = s.Cwd()
	}
	pol := sandbox.CallPolicy{Mode: mode, WorkspaceRoot: sandbox.CanonicalPath(root)}
	if s != nil {
		pol.SessionID = s.ID()
	}
	return pol
}

func (f *fakePolicy) OverrideOf(sandbox.Session) (sandbox.Mode, bool) { return "", false }

func (f *fakePolicy) SetMode(sandbox.Session, sandbox.Mode) error {
	return errors.New("fakePolicy: no session overrides")
}

func (f *fakePolicy) setDefault(m sandbox.Mode) {
	f.mu.Lock()
	f.mode = m
	f.mu.Unlock()
}

// world is a sandboxed provider over base/{ws,out}. base lies under $HOME, deliberately not
// under the temp dir: workspace-write grants /tmp and the temp dir, so an "outside" directory
// there would be legitimately writable.
type world struct {
	base, ws, out string
	policy        *fakePolicy
	fs            *fssandbox.Provider
	ctx           context.Context
}

func newWorld(t testing.TB, mode sandbox.Mode, cfg *fssandbox.Config) *world {
	t.Helper()
	base := sandboxtest.OutsideDir(t)
	w := &world{base: base, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out"), ctx: context.Background()}
	require.NoError(t, os.Mkdir(w.ws, 0o755))
	require.NoError(t, os.Mkdir(w.out, 0o755))
	w.policy = &fakePolicy{mode: mode, root: w.ws}
	c := fssandbox.Config{Cwd: w.ws}
	if cfg != nil {
		c = *cfg
		if c.Cwd == "" {
			c.Cwd = w.ws
		}
	}
	p, err := fssandbox.New(c, w.policy, nil)
	require.NoError(t, err)
	w.fs = p
	return w
}

func (w *world) target(t testing.TB, path string) fs.Target {
	t.Helper()
	tg, err := w.fs.Resolve(w.ctx, path, fs.ResolveOptions{})
	require.NoError(t, err)
	return tg
}

func (w *world) write(t testing.TB, path, content string) error {
	t.Helper()
	_, err := w.fs.WriteText(w.ctx, w.target(t, path), content, nil)
	return err
}

func (w *world) edit(t testing.TB, path, old, new string) error {
	t.Helper()
	_, err := w.fs.EditText(w.ctx, w.target(t, path), fs.EditRequest{OldString: old, NewString: new}, nil)
	return err
}

func (w *world) policyFor(mode sandbox.Mode) *sandbox.CallPolicy {
	return &sandbox.CallPolicy{Mode: mode, WorkspaceRoot: w.ws}
}

// requireCode asserts err is an *fs.Error with the code.
func requireCode(t testing.TB, err error, code fs.Code) *fs.Error {
	t.Helper()
	require.Error(t, err)
	var fe *fs.Error
	require.ErrorAs(t, err, &fe, "want *fs.Error, got %T: %v", err, err)
	require.Equal(t, code, fe.Kind, fe.Message)
	return fe
}

// requireDenied asserts the exact denial text of spec 2.9.
func requireDenied(t testing.TB, err error, display string, mode sandbox.Mode) *fs.Error {
	t.Helper()
	fe := requireCode(t, err, fs.CodeSandboxDenied)
	require.Equal(t, `cannot write "`+display+`": file access denied under `+string(mode)+` mode`, fe.Message)
	return fe
}

func readDisk(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// tree lists every entry under dir (relative names), so "nothing was created" can be asserted.
func tree(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

func requireNoResidue(t testing.TB, dir string) {
	t.Helper()
	for _, n := range tree(t, dir) {
		assert.False(t, strings.HasSuffix(n, ".tmpdir") || strings.HasSuffix(n, ".tmp"), "staging residue %s", n)
	}
}

// within reports whether path is dir or lies beneath it (filepath.Rel does not climb out).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
