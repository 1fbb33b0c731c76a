package fslocal_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

func newKernel(t *testing.T) *kernel.Kernel {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	return k
}

func TestPluginProvidesTheService(t *testing.T) {
	k := newKernel(t)
	dir := t.TempDir()
	f, err := k.Root().Load(fslocal.Plugin, fslocal.Config{Cwd: dir, DiffBasisMaxBytes: 100})
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "%v", f.Err())

	svc, ok := fs.Service.Get(k.Root())
	require.True(t, ok)
	p, ok := svc.(*fslocal.Provider)
	require.True(t, ok)
	assert.Equal(t, dir, p.Cwd())

	second, err := k.Root().Load(fslocal.Plugin, nil)
	if err == nil {
		assert.NotEqual(t, kernel.Active, second.State(), "a second provider must not become active")
		assert.ErrorIs(t, second.Err(), kernel.ErrDuplicateService)
	} else {
		assert.ErrorIs(t, err, kernel.ErrDuplicateService)
	}

	require.NoError(t, f.Dispose())
	_, ok = fs.Service.Get(k.Root())
	assert.False(t, ok, "disposing the provider withdraws the service")
}

func TestPluginDefaultsAndValidation(t *testing.T) {
	k := newKernel(t)
	f, err := k.Root().Load(fslocal.Plugin, nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "%v", f.Err())
	require.NoError(t, f.Dispose())

	bad, err := k.Root().Load(fslocal.Plugin, fslocal.Config{DiffBasisMaxBytes: -1})
	msg := "fs-local: diffBasisMaxBytes must be a positive safe integer no greater than 9007199254740991"
	if err != nil {
		assert.ErrorContains(t, err, msg)
	} else {
		assert.Equal(t, kernel.Failed, bad.State())
		assert.ErrorContains(t, bad.Err(), msg)
	}
}
