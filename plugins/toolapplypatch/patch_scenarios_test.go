package toolapplypatch_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	cfs "github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// patchEnv is a kernel with fs-local over dir (with the encodings rules), the observation
// policy when gated, the tools runtime, tool-fs (for read) and tool-apply-patch.
type patchEnv struct {
	rt      *tools.Runtime
	dir     string
	session *tools.Session
	calls   int
}

func newPatchEnv(t testing.TB, dir string, gated bool, rules ...charset.Rule) *patchEnv {
	t.Helper()
	root := kerneltest.NewRoot(t)
	provider := kernel.Module{ID: "fs-local-test", Apply: func(kc *kernel.Context, _ any) error {
		p, err := fslocal.New(fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes, Encodings: rules}, kc.Logger())
		if err != nil {
			return err
		}
		_, err = cfs.Service.Provide(kc, p)
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, provider, nil))
	if gated {
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fspolicy.Plugin, nil))
	}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfs.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolapplypatch.Plugin, nil))
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: dir})
	return &patchEnv{rt: rt, dir: dir, session: s}
}

func (e *patchEnv) call(name string, a map[string]any) tools.Result {
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "c" + strconv.Itoa(e.calls), Name: name, Args: a, Session: e.session})
}

// readAll reads every regular file under the env's directory through the read tool.
func (e *patchEnv) readAll(t testing.TB) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(e.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		r := e.call("read", map[string]any{"file_path": p})
		require.False(t, r.IsError, r.Text())
		return nil
	}))
}

// entry is a snapshot entry: a directory (dir) or a file's bytes.
type entry struct {
	dir  bool
	data string
}

func snapshot(t testing.TB, root string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	if _, err := os.Stat(root); os.IsNotExist(err) {
		return out
	}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.IsDir():
			out[rel] = entry{dir: true}
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			out[rel] = entry{data: string(b)}
		}
		return nil
	}))
	return out
}

func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return
	}
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == src {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	}))
}

// partialSuccessScenario is the one Codex scenario Cordon contradicts on purpose: a patch that
// fails part way changes nothing (docs/apply_patch.md "All or nothing"), so the tree stays as
// input/ (here: empty).
const partialSuccessScenario = "015_failure_after_partial_success_leaves_changes"

// TestPatchScenarios runs Codex's end-to-end scenarios (testdata/apply_patch, see its NOTICE)
// through the real tool pipeline, without the read gate and with it (every existing file read
// first), and compares the final tree with expected/ exactly: files, bytes and folders.
func TestPatchScenarios(t *testing.T) {
	base := filepath.Join("testdata", "apply_patch", "scenarios")
	dirs, err := os.ReadDir(base)
	require.NoError(t, err)
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		n++
		for _, gated := range []bool{false, true} {
			name := d.Name() + map[bool]string{false: "/ungated", true: "/gated"}[gated]
			t.Run(name, func(t *testing.T) {
				sc := filepath.Join(base, d.Name())
				dir, err := filepath.EvalSymlinks(t.TempDir())
				require.NoError(t, err)
				copyTree(t, filepath.Join(sc, "input"), dir)
				patchText, err := os.ReadFile(filepath.Join(sc, "patch.txt"))
				require.NoError(t, err)
				e := newPatchEnv(t, dir, gated)
				if gated {
					e.readAll(t)
				}
				r := e.call("apply_patch", map[string]any{"input": string(patchText)})
				want := filepath.Join(sc, "expected")
				if d.Name() == partialSuccessScenario {
					want = filepath.Join(sc, "input")
					require.True(t, r.IsError, r.Text())
				}
				require.Equal(t, snapshot(t, want), snapshot(t, dir), "result: %s", r.Text())
			})
		}
	}
	require.Equal(t, 23, n, "Codex's 23 scenarios")
}
