package hostfs_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// reported is what a publish hook heard: each phase, with the prior bytes read during
// PublishBefore.
type reported struct {
	mu     sync.Mutex
	phases []fs.PublishPhase
	prior  []string // "" with a nil Prior
	after  []string
	args   []fs.PublishArgs
}

func hook(r *reported, wanted bool) hostfs.PublishHook {
	return hostfs.PublishHook{
		Wanted: func() bool { return wanted },
		Report: func(_ context.Context, a fs.PublishArgs) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.phases = append(r.phases, a.Phase)
			r.args = append(r.args, a)
			if a.Phase != fs.PublishBefore {
				return
			}
			prior := ""
			if a.Prior != nil && a.Prior.Content != nil {
				b, _ := io.ReadAll(io.NewSectionReader(a.Prior.Content, 0, a.Prior.Size))
				prior = string(b)
			}
			r.prior = append(r.prior, prior)
			r.after = append(r.after, a.After)
		},
	}
}

func TestPublishHookReportsEachMutation(t *testing.T) {
	p, dir := newProvider(t)
	var r reported
	p.SetPublishHook(hook(&r, true))
	ctx := context.Background()
	path := filepath.Join(dir, "a.txt")
	tg := resolve(t, p, path)

	out, err := p.WriteText(ctx, tg, "one\n", nil)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(path, 0o640))
	info, err := p.Stat(ctx, tg)
	require.NoError(t, err)
	_, err = p.EditText(ctx, tg, fs.EditRequest{OldString: "one", NewString: "two"}, nil)
	require.NoError(t, err)
	_, err = p.EditText(ctx, tg, fs.EditRequest{OldString: "absent", NewString: "x"}, nil)
	require.Error(t, err, "a refused edit reports nothing")

	assert.Equal(t, []fs.PublishPhase{fs.PublishBefore, fs.PublishDone, fs.PublishBefore, fs.PublishDone}, r.phases)
	assert.Nil(t, r.args[0].Prior, "a creation has no prior file")
	assert.Equal(t, out.Version, r.args[1].Version)
	assert.Equal(t, []string{"", "one\n"}, r.prior)
	assert.Equal(t, []string{"one\n", "two\n"}, r.after)
	assert.Equal(t, info.Version, r.args[2].Prior.Version)
	assert.Equal(t, uint32(0o640), r.args[2].Prior.Mode)
	assert.Equal(t, fs.VerbEdit, r.args[3].Verb)
}

func TestPublishHookNotWantedReportsNothing(t *testing.T) {
	p, dir := newProvider(t)
	var r reported
	p.SetPublishHook(hook(&r, false))
	_, err := p.WriteText(context.Background(), resolve(t, p, filepath.Join(dir, "a.txt")), "x", nil)
	require.NoError(t, err)
	assert.Empty(t, r.phases)
}

// A publication that fails after PublishBefore (here the call is cancelled then) reports
// PublishFailed, the file unchanged.
func TestPublishHookReportsAFailedPublication(t *testing.T) {
	p, dir := newProvider(t)
	var r reported
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := hook(&r, true)
	report := h.Report
	h.Report = func(c context.Context, a fs.PublishArgs) {
		report(c, a)
		if a.Phase == fs.PublishBefore {
			cancel()
		}
	}
	p.SetPublishHook(h)
	path := filepath.Join(dir, "a.txt")
	writeFile(t, path, "one")
	_, err := p.WriteText(ctx, resolve(t, p, path), "two", nil)
	require.ErrorIs(t, err, fs.ErrAborted)
	assert.Equal(t, []fs.PublishPhase{fs.PublishBefore, fs.PublishFailed}, r.phases)
	assert.Equal(t, "one", contents(t, path))
}

func TestRestoreIsGuardedAndByteForByte(t *testing.T) {
	p, dir := newProvider(t)
	ctx := context.Background()
	path := filepath.Join(dir, "a.txt")
	writeFile(t, path, "\xEF\xBB\xBFbom\r\n")
	tg := resolve(t, p, path)
	info, err := p.Stat(ctx, tg)
	require.NoError(t, err)

	_, err = p.Restore(ctx, tg, fs.Restoration{Content: []byte("x"), Expect: "stale"})
	requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+path+`": file changed since it was read`)
	assert.Equal(t, "\xEF\xBB\xBFbom\r\n", contents(t, path))

	// No BOM is kept: the bytes are the restoration's.
	v, err := p.Restore(ctx, tg, fs.Restoration{Content: []byte("plain\n"), Expect: info.Version})
	require.NoError(t, err)
	assert.Equal(t, "plain\n", contents(t, path))

	_, err = p.Restore(ctx, tg, fs.Restoration{Remove: true, Expect: v})
	require.NoError(t, err)
	assert.NoFileExists(t, path)

	_, err = p.Restore(ctx, tg, fs.Restoration{Content: []byte("back"), Mode: 0o600, Expect: "v"})
	requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+path+`": file no longer exists`)
	_, err = p.Restore(ctx, tg, fs.Restoration{Content: []byte("back"), Mode: 0o600})
	require.NoError(t, err)
	assert.Equal(t, "back", contents(t, path))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	_, err = p.Restore(ctx, tg, fs.Restoration{Content: []byte("again")})
	requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+path+`": file changed since it was read`)
	_, err = p.Restore(ctx, tg, fs.Restoration{Content: []byte("forced"), Force: true})
	require.NoError(t, err)
	assert.Equal(t, "forced", contents(t, path))
}

func contents(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
