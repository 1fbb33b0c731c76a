package fssandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

func newKernel(t *testing.T) *kernel.Kernel {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	return k
}

// policyPlugin provides the sandbox policy service with a fakePolicy.
func policyPlugin(p *fakePolicy) kernel.Module {
	return kernel.Define[struct{}]("test-sandbox-policy", func(kc *kernel.Context, _ struct{}) error {
		_, err := sandbox.PolicyService.Provide(kc, sandbox.Policy(p))
		return err
	})
}

// The plugin registers as the fs service and withdraws it cleanly when disposed.
func TestPluginRegistersAsFs(t *testing.T) {
	k := newKernel(t)
	ws := t.TempDir()
	f, err := k.Root().Load(fssandbox.Plugin, fssandbox.Config{Cwd: ws, DiffBasisMaxBytes: 100})
	require.NoError(t, err)
	assert.NotEqual(t, kernel.Active, f.State(), "pending until the policy service exists")
	_, ok := fs.Service.Get(k.Root())
	assert.False(t, ok)

	pol, err := k.Root().Load(policyPlugin(&fakePolicy{mode: sandbox.WorkspaceWrite, root: ws}), nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "%v", f.Err())
	svc, ok := fs.Service.Get(k.Root())
	require.True(t, ok)
	p, ok := svc.(*fssandbox.Provider)
	require.True(t, ok, "the fs service is the sandboxed provider")
	assert.Equal(t, sandbox.WorkspaceWrite, p.SandboxMode())
	assert.Equal(t, ws, p.Cwd())

	require.NoError(t, f.Dispose())
	_, ok = fs.Service.Get(k.Root())
	assert.False(t, ok, "disposing withdraws the fs service")

	f, err = k.Root().Load(fssandbox.Plugin, nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "%v", f.Err())
	_, ok = fs.Service.Get(k.Root())
	assert.True(t, ok, "re-mounted with no lingering registration")

	// fs-local next to it is a second fs provider.
	second, err := k.Root().Load(fslocal.Plugin, nil)
	if err == nil {
		assert.NotEqual(t, kernel.Active, second.State())
	}

	// Withdrawing the policy service unloads the provider.
	require.NoError(t, pol.Dispose())
	assert.NotEqual(t, kernel.Active, f.State())
}

func TestPluginValidation(t *testing.T) {
	k := newKernel(t)
	_, err := k.Root().Load(policyPlugin(&fakePolicy{mode: sandbox.ReadOnly, root: t.TempDir()}), nil)
	require.NoError(t, err)
	for cfg, msg := range map[*fssandbox.Config]string{
		{DiffBasisMaxBytes: -1}:                                  "fs-local: diffBasisMaxBytes must be a positive safe integer no greater than 9007199254740991",
		{DiffBasisMaxBytes: 8, ProtectedPaths: []string{"/abs"}}: `fs-sandbox: protectedPaths[0] must be a clean relative path inside the writable root, got "/abs"`,
	} {
		f, err := k.Root().Load(fssandbox.Plugin, *cfg)
		if err != nil {
			assert.ErrorContains(t, err, msg)
			continue
		}
		assert.Equal(t, kernel.Failed, f.State())
		assert.ErrorContains(t, f.Err(), msg)
	}
}

func decode(t *testing.T, src string) (*fssandbox.Config, error) {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n))
	cfg, err := loader.DecodeConfig(fssandbox.Plugin, &n)
	if err != nil {
		return nil, err
	}
	return cfg.(*fssandbox.Config), nil
}

func TestConfigYAML(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	cfg, err := decode(t, "")
	require.NoError(t, err)
	assert.Equal(t, fssandbox.Config{Cwd: wd, DiffBasisMaxBytes: hostfs.DefaultDiffBasisMaxBytes, MaxFileBytes: hostfs.DefaultMaxFileBytes, ProtectedPaths: []string{".git"}}, *cfg)

	cfg, err = decode(t, "cwd: /w\ndiffBasisMaxBytes: 1e3\nmaxFileBytes: 2048\nprotectedPaths: [.git, .cordon/x]")
	require.NoError(t, err)
	assert.Equal(t, fssandbox.Config{Cwd: "/w", DiffBasisMaxBytes: 1000, MaxFileBytes: 2048, ProtectedPaths: []string{".git", ".cordon/x"}}, *cfg)

	cfg, err = decode(t, "protectedPaths: []")
	require.NoError(t, err)
	assert.NotNil(t, cfg.ProtectedPaths)
	assert.Empty(t, cfg.ProtectedPaths, "an explicit empty list protects nothing")

	_, err = decode(t, "cwd: /x\nbogus: 1")
	var uk *loader.UnknownKeyError
	require.ErrorAs(t, err, &uk, "unknown keys are strict errors")
	assert.Equal(t, "bogus", uk.Key)
	assert.Equal(t, 2, uk.Line)

	for _, bad := range []string{"diffBasisMaxBytes: 1.5", "diffBasisMaxBytes: 0", "diffBasisMaxBytes: -1"} {
		_, err = decode(t, bad)
		assert.EqualError(t, err, "fs-local: diffBasisMaxBytes must be a positive safe integer no greater than 9007199254740991", bad)
	}
	for _, bad := range []string{`""`, `/etc`, `..`, `../x`, `a/../b`, `./a`, `a/`, `.`, `"a\0b"`} {
		_, err = decode(t, "protectedPaths: ["+bad+"]")
		assert.ErrorContains(t, err, "fs-sandbox: protectedPaths[0] must be a clean relative path inside the writable root", bad)
	}
	_, err = decode(t, "protectedPaths: {a: 1}")
	assert.Error(t, err, "a mapping is a type error")
	_, err = decode(t, "- 1")
	assert.Error(t, err, "a sequence is a type error")
}

// The provider follows the fs-local options.
func TestConfigReachesTheLocalMechanics(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{DiffBasisMaxBytes: 4})
	path := filepath.Join(w.ws, "f.txt")
	require.NoError(t, os.WriteFile(path, []byte("ab"), 0o644))
	out, err := w.fs.WriteText(w.ctx, w.target(t, path), "cd", nil)
	require.NoError(t, err)
	require.NotNil(t, out.Before)
	assert.Equal(t, "ab", *out.Before)
	out, err = w.fs.WriteText(w.ctx, w.target(t, path), "longer", nil)
	require.NoError(t, err)
	assert.Nil(t, out.Before, "content at or above diffBasisMaxBytes declines the basis")
	tg, err := w.fs.Resolve(w.ctx, "rel.txt", fs.ResolveOptions{})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(w.ws, "rel.txt"), tg.DisplayPath, "cwd is the resolution default")
}
