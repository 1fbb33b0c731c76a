package hostfs_test

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// newProvider returns a provider whose cwd is a fresh temp dir (returned
// physical, so expected keys can be built from it).
func newProvider(t *testing.T) (*hostfs.Provider, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	require.NoError(t, err)
	return p, dir
}

func writeFile(t *testing.T, path string, data string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

func resolve(t *testing.T, p *hostfs.Provider, path string) fs.Target {
	t.Helper()
	tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
	require.NoError(t, err)
	return tg
}

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// requireFsError asserts err is an *fs.Error with the code and exact message.
func requireFsError(t *testing.T, err error, code fs.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	var fe *fs.Error
	require.ErrorAs(t, err, &fe, "want *fs.Error, got %T: %v", err, err)
	require.Equal(t, code, fe.Kind, fe.Message)
	require.Equal(t, msg, fe.Message)
}

func streamAll(t *testing.T, p *hostfs.Provider, ctx context.Context, tg fs.Target) (string, error) {
	t.Helper()
	return collect(t, ctx, tg, p.StreamText)
}

func streamBytesAll(t *testing.T, p *hostfs.Provider, ctx context.Context, tg fs.Target) (string, error) {
	t.Helper()
	return collect(t, ctx, tg, p.StreamTextBytes)
}

// collect concatenates a text stream, requiring every chunk to be non-empty.
func collect[T string | []byte](t *testing.T, ctx context.Context, tg fs.Target, stream func(context.Context, fs.Target) (iter.Seq2[T, error], error)) (string, error) {
	t.Helper()
	seq, err := stream(ctx, tg)
	if err != nil {
		return "", err
	}
	var out []byte
	for chunk, err := range seq {
		if err != nil {
			return string(out), err
		}
		require.NotEmpty(t, chunk, "chunks are never empty")
		out = append(out, chunk...)
	}
	return string(out), nil
}
