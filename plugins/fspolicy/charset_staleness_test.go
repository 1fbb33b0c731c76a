package fspolicy_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/unicode"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// legacyEnv is fs-local over dir with *.cp1252 declared windows-1252, the observation policy
// (content staleness), the tools runtime, tool-fs and tool-apply-patch.
type legacyEnv struct {
	rt      *tools.Runtime
	dir     string
	session *tools.Session
	calls   int
}

func newLegacyEnv(t *testing.T) *legacyEnv {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root := kerneltest.NewRoot(t)
	cfg := fslocal.Config{Cwd: dir, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes,
		Encodings: []charset.Rule{{Glob: "*.cp1252", Charset: "windows-1252"}}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, kernel.Module{ID: "fs-local-test", Apply: func(kc *kernel.Context, _ any) error {
		p, err := fslocal.New(cfg, kc.Logger())
		if err != nil {
			return err
		}
		_, err = fs.Service.Provide(kc, p)
		return err
	}}, nil))
	for _, m := range []kernel.Module{fspolicy.Plugin, tools.Plugin, toolfs.Plugin, toolapplypatch.Plugin} {
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, m, nil))
	}
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: dir})
	return &legacyEnv{rt: rt, dir: dir, session: s}
}

func (e *legacyEnv) call(t *testing.T, name string, a map[string]any) tools.Result {
	t.Helper()
	e.calls++
	return e.rt.Execute(context.Background(), tools.Call{CallID: "c" + strconv.Itoa(e.calls), Name: name, Args: a, Session: e.session})
}

// docs/fs.md "Staleness" and docs/encodings.md: what a read of a file in another charset records
// is compared with the file's text decoded the same way, so a touch (a new version, the same
// bytes) does not make the next write, edit or patch delete stale, and a change of the bytes
// outside does.
func TestContentStalenessOfAFileInAnotherCharset(t *testing.T) {
	u16 := func(s string) string {
		b, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String(s)
		require.NoError(t, err)
		return "\xFF\xFE" + b
	}
	for _, c := range []struct{ name, before, changed string }{
		{"a.cp1252", "caf\xe9\nna\xefve\n", "caf\xe9\nNA\xcfVE\n"},
		{"u16.txt", u16("café\nnaïve\n"), u16("café\nNAÏVE\n")},
	} {
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"edit", map[string]any{"file_path": c.name, "old_string": "caf", "new_string": "CAF"}},
			{"write", map[string]any{"file_path": c.name, "content": "CAFÉ\n"}},
			{"apply_patch", map[string]any{"input": "*** Begin Patch\n*** Delete File: " + c.name + "\n*** End Patch\n"}},
		} {
			t.Run(c.name+"/"+call.tool, func(t *testing.T) {
				e := newLegacyEnv(t)
				p := filepath.Join(e.dir, c.name)
				args := call.args
				require.NoError(t, os.WriteFile(p, []byte(c.before), 0o644))
				r := e.call(t, "read", map[string]any{"file_path": c.name})
				require.False(t, r.IsError, r.Text())
				later := time.Now().Add(2 * time.Second)
				require.NoError(t, os.Chtimes(p, later, later))
				r = e.call(t, call.tool, args)
				require.False(t, r.IsError, "a touch is not a change: %s", r.Text())

				require.NoError(t, os.WriteFile(p, []byte(c.before), 0o644))
				r = e.call(t, "read", map[string]any{"file_path": c.name})
				require.False(t, r.IsError, r.Text())
				require.NoError(t, os.WriteFile(p, []byte(c.changed), 0o644))
				r = e.call(t, call.tool, args)
				require.True(t, r.IsError, r.Text())
				assert.Equal(t, "FS_STALE_VERSION", r.Code(), r.Text())
				got, err := os.ReadFile(p)
				require.NoError(t, err)
				assert.Equal(t, c.changed, string(got), "a stale call changes nothing")
			})
		}
	}
}
