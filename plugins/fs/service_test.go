package fs_test

import (
	"context"
	"errors"
	"iter"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// fakeFS is a minimal provider: the seam is tested without a real backend
// (the seam's own contract).
type fakeFS struct{}

var _ fs.FileSystem = fakeFS{}

func (fakeFS) Resolve(_ context.Context, path string, _ fs.ResolveOptions) (fs.Target, error) {
	return fs.Target{Key: fs.TargetKey(path), DisplayPath: path}, nil
}
func (fakeFS) ProcessPath(t fs.Target) string        { return string(t.Key) }
func (fakeFS) FileURL(t fs.Target) string            { return "file:///" + string(t.Key) }
func (fakeFS) Contains(parent, child fs.Target) bool { return parent.Key == child.Key }
func (fakeFS) Stat(context.Context, fs.Target) (*fs.Info, error) {
	return &fs.Info{Version: "v1", Type: fs.TypeFile, Size: 2, HasSize: true}, nil
}
func (fakeFS) Lstat(context.Context, string, fs.LstatOptions) (*fs.PathInfo, error) {
	return nil, nil
}
func (fakeFS) ReadText(context.Context, fs.Target) (fs.ReadOutcome, error) {
	return fs.ReadOutcome{Text: "hi"}, nil
}
func (fakeFS) StreamText(context.Context, fs.Target) (iter.Seq2[string, error], error) {
	return func(yield func(string, error) bool) { yield("hi", nil) }, nil
}
func (fakeFS) ReadBytes(context.Context, fs.Target, int64) ([]byte, error) { return []byte("hi"), nil }
func (fakeFS) ListDir(context.Context, fs.Target) ([]fs.DirEntry, error)   { return nil, nil }
func (fakeFS) WriteText(context.Context, fs.Target, string, *fs.WriteIntent) (fs.WriteOutcome, error) {
	return fs.WriteOutcome{}, nil
}
func (fakeFS) EditText(context.Context, fs.Target, fs.EditRequest, *fs.EditGuard) (fs.EditOutcome, error) {
	return fs.EditOutcome{}, nil
}

var fakePlugin = kernel.Define[struct{}]("fake-fs", func(kc *kernel.Context, _ struct{}) error {
	_, err := fs.Service.Provide(kc, fakeFS{})
	return err
})

// Reference: "registers as ctx.fs and serves the primitives", "throws when a
// second implementation is loaded (duplicate service)", "removes the service
// when the providing fiber is disposed".
func TestServiceRegistrationDuplicateAndDisposal(t *testing.T) {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	f, err := k.Root().Load(fakePlugin, nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "%v", f.Err())
	svc, ok := fs.Service.Get(k.Root())
	require.True(t, ok)
	tg, err := svc.Resolve(context.Background(), "a.txt", fs.ResolveOptions{})
	require.NoError(t, err)
	read, err := svc.ReadText(context.Background(), tg)
	require.NoError(t, err)
	assert.Equal(t, "hi", read.Text)

	second, err := k.Root().Load(fakePlugin, nil)
	if err == nil {
		assert.NotEqual(t, kernel.Active, second.State())
		err = second.Err()
	}
	assert.ErrorIs(t, err, kernel.ErrDuplicateService)

	require.NoError(t, f.Dispose())
	_, ok = fs.Service.Get(k.Root())
	assert.False(t, ok, "disposing the provider withdraws the service")
}

// Reference: "FsTargetKey and FsVersion brand a string (identity at
// runtime)" and "chains an underlying cause through ErrorOptions".
func TestBrandsAndCauseChaining(t *testing.T) {
	assert.Equal(t, "k", string(fs.TargetKey("k")))
	assert.Equal(t, "v", string(fs.Version("v")))

	root := errors.New("EACCES")
	err := fs.NewError(fs.CodeAborted, "cannot read", root)
	assert.Equal(t, fs.CodeAborted, err.Kind)
	assert.Equal(t, "FS_ABORTED", err.Code())
	assert.Equal(t, "FsError", err.Name())
	assert.Equal(t, "cannot read", err.Error())
	assert.Same(t, root, errors.Unwrap(err))
	assert.ErrorIs(t, err, root)
}
