package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// resolvers runs f once with openat2 (where the platform has it) and once with
// the O_NOFOLLOW walk that replaces it elsewhere.
func resolvers(t *testing.T, f func(t *testing.T)) {
	t.Run("openat2", func(t *testing.T) {
		f(t)
	})
	t.Run("walk", func(t *testing.T) {
		forceWalk(t)
		f(t)
	})
}

// beneathFixture is a provider and a tree base/{ws,out} (physical paths).
type beneathFixture struct {
	p        *Provider
	ws, out  string
	denied   []error // causes Deny saw
	beneath  Beneath
	ctx      context.Context
	resolveT func(path string) fs.Target
}

var errDeniedForTest = fs.NewError(fs.CodeSandboxDenied, "denied for test", nil)

func newBeneathFixture(t *testing.T) *beneathFixture {
	t.Helper()
	base := tempDir(t)
	fx := &beneathFixture{ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out"), ctx: context.Background()}
	require.NoError(t, os.Mkdir(fx.ws, 0o755))
	require.NoError(t, os.Mkdir(fx.out, 0o755))
	p, err := New(Config{Cwd: fx.ws}, nil)
	require.NoError(t, err)
	fx.p = p
	fx.beneath = Beneath{Root: fx.ws, Deny: func(cause error) error {
		fx.denied = append(fx.denied, cause)
		return fs.NewError(fs.CodeSandboxDenied, errDeniedForTest.Message, cause)
	}}
	fx.resolveT = func(path string) fs.Target {
		tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
		require.NoError(t, err)
		return tg
	}
	return fx
}

func (fx *beneathFixture) write(tg fs.Target, content string, intent *fs.WriteIntent, hooks *atomicHooks) (fs.WriteOutcome, error) {
	if hooks == nil {
		return fx.p.WriteTextBeneath(fx.ctx, tg, content, intent, fx.beneath)
	}
	// The hooked path: the same steps as writeText, with test hooks installed.
	b := fx.beneath
	if err := b.check(tg); err != nil {
		return fs.WriteOutcome{}, err
	}
	opts := atomicOptions{display: tg.DisplayPath, beneath: &b, hooks: hooks, createIfAbsent: intent != nil && intent.Kind == fs.IntentCreateIfAbsent}
	return fs.WriteOutcome{}, writeFileAtomic(fx.ctx, string(tg.Key), content, opts)
}

func requireDenied(t *testing.T, fx *beneathFixture, err error) {
	t.Helper()
	require.Error(t, err)
	assert.True(t, errors.Is(err, fs.ErrSandboxDenied), "want a denial, got %v", err)
	assert.True(t, errors.Is(err, ErrEscape), "the cause wraps ErrEscape: %v", err)
	assert.NotEmpty(t, fx.denied, "Deny built the error")
}

func requireEmptyDir(t *testing.T, dir string) {
	t.Helper()
	assert.Empty(t, entries(t, dir), "nothing may appear in %s", dir)
}

func TestBeneathWriteCreatesParentsAndPublishes(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		tg := fx.resolveT(filepath.Join(fx.ws, "a", "b", "new.txt"))
		out, err := fx.p.WriteTextBeneath(fx.ctx, tg, "inside", nil, fx.beneath)
		require.NoError(t, err)
		assert.Equal(t, fs.OperationCreate, out.Operation)
		assert.Equal(t, "inside", readFile(t, string(tg.Key)))
		assert.Equal(t, CreatedMode(t), permAt(t, string(tg.Key)), "a new file follows the umask, as fs-local")
		assert.Equal(t, []string{"new.txt"}, entries(t, filepath.Join(fx.ws, "a", "b")), "staging removed")

		// Replacing keeps the permission bits and reports the prior content.
		require.NoError(t, os.Chmod(string(tg.Key), 0o640))
		info, err := fx.p.Stat(fx.ctx, tg)
		require.NoError(t, err)
		out, err = fx.p.WriteTextBeneath(fx.ctx, tg, "again", fs.ReplaceIfVersion(info.Version), fx.beneath)
		require.NoError(t, err)
		assert.Equal(t, fs.OperationUpdate, out.Operation)
		require.NotNil(t, out.Before)
		assert.Equal(t, "inside", *out.Before)
		assert.Equal(t, os.FileMode(0o640), permAt(t, string(tg.Key)))
		assert.Zero(t, fx.p.lockCount())
		assert.Empty(t, fx.denied)
	})
}

func TestBeneathWriteAtTheRootItself(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		tg := fx.resolveT(filepath.Join(fx.ws, "top.txt"))
		_, err := fx.p.WriteTextBeneath(fx.ctx, tg, "x", nil, fx.beneath)
		require.NoError(t, err)
		assert.Equal(t, "x", readFile(t, string(tg.Key)))

		// The root itself is a directory: the probe refuses it before any directory operation.
		_, err = fx.p.WriteTextBeneath(fx.ctx, fx.resolveT(fx.ws), "x", nil, fx.beneath)
		assert.True(t, errors.Is(err, fs.ErrNotRegularFile), "%v", err)

		// "/" as the root: any path beneath it.
		slash := fx.beneath
		slash.Root = "/"
		tg = fx.resolveT(filepath.Join(fx.out, "via-slash.txt"))
		_, err = fx.p.WriteTextBeneath(fx.ctx, tg, "s", nil, slash)
		require.NoError(t, err)
		assert.Equal(t, "s", readFile(t, string(tg.Key)))
	})
}

// Refusals before any I/O: a key that is not lexically beneath the root (sibling prefix
// included), an unclean key, a root that is relative or unclean.
func TestBeneathRefusesBeforeIO(t *testing.T) {
	fx := newBeneathFixture(t)
	sibling := fx.ws + "2"
	cases := []struct {
		name string
		root string
		key  string
	}{
		{"outside", fx.ws, filepath.Join(fx.out, "x.txt")},
		{"sibling prefix", fx.ws, filepath.Join(sibling, "x.txt")},
		{"unclean key", fx.ws, fx.ws + "/../out/x.txt"},
		{"relative root", "ws", filepath.Join(fx.ws, "x.txt")},
		{"unclean root", fx.ws + "/", filepath.Join(fx.ws, "x.txt")},
		{"parent of the root", fx.ws, filepath.Dir(fx.ws)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fx.denied = nil
			b := fx.beneath
			b.Root = tc.root
			tg := fs.Target{Key: fs.TargetKey(tc.key), DisplayPath: tc.key}
			_, err := fx.p.WriteTextBeneath(fx.ctx, tg, "x", nil, b)
			requireDenied(t, fx, err)
			_, err = fx.p.EditTextBeneath(fx.ctx, tg, fs.EditRequest{OldString: "a", NewString: "b"}, nil, b)
			requireDenied(t, fx, err)
			assert.NoFileExists(t, tc.key)
			assert.NoDirExists(t, sibling)
			requireEmptyDir(t, fx.out)
			assert.Zero(t, fx.p.lockCount(), "refused before locking")
		})
	}
}

// Without Deny the cause itself is returned.
func TestBeneathNilDenyReturnsTheCause(t *testing.T) {
	fx := newBeneathFixture(t)
	tg := fs.Target{Key: fs.TargetKey(filepath.Join(fx.out, "x")), DisplayPath: filepath.Join(fx.out, "x")}
	_, err := fx.p.WriteTextBeneath(fx.ctx, tg, "x", nil, Beneath{Root: fx.ws})
	require.ErrorIs(t, err, ErrEscape)
	assert.Empty(t, fs.CodeOf(err))
}

func TestBeneathMissingOrSymlinkedRoot(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		missing := filepath.Join(fx.ws, "gone")
		b := fx.beneath
		b.Root = missing
		tg := fs.Target{Key: fs.TargetKey(filepath.Join(missing, "x.txt")), DisplayPath: filepath.Join(missing, "x.txt")}
		_, err := fx.p.WriteTextBeneath(fx.ctx, tg, "x", nil, b)
		requireDenied(t, fx, err)
		assert.NoDirExists(t, missing, "a missing root is not created")

		// A root spelled through a symlink is not canonical: refused, not followed.
		link := filepath.Join(fx.ws, "rootlink")
		require.NoError(t, os.Symlink(fx.out, link))
		b.Root = link
		tg = fs.Target{Key: fs.TargetKey(filepath.Join(link, "x.txt")), DisplayPath: filepath.Join(link, "x.txt")}
		_, err = fx.p.WriteTextBeneath(fx.ctx, tg, "x", nil, b)
		requireDenied(t, fx, err)
		requireEmptyDir(t, fx.out)
	})
}

// A hard link inside the root to an outside inode: the mutation is refused (a file with two
// links is never replaced, see TestReplaceRefusesHardLinkedFiles), so the outside file is never
// written, and neither name changes.
func TestBeneathHardLinkKeepsTheOutsideInode(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		outside := filepath.Join(fx.out, "file")
		require.NoError(t, os.WriteFile(outside, []byte("outside"), 0o644))
		require.NoError(t, os.Link(outside, filepath.Join(fx.ws, "hard")))
		tg := fx.resolveT(filepath.Join(fx.ws, "hard"))
		_, err := fx.p.WriteTextBeneath(fx.ctx, tg, "inside", nil, fx.beneath)
		require.ErrorIs(t, err, fs.ErrIOError)
		assert.Contains(t, err.Error(), "it has 2 hard links")
		_, err = fx.p.EditTextBeneath(fx.ctx, tg, fs.EditRequest{OldString: "outside", NewString: "edited"}, nil, fx.beneath)
		require.ErrorIs(t, err, fs.ErrIOError)
		assert.Equal(t, "outside", readFile(t, filepath.Join(fx.ws, "hard")))
		assert.Equal(t, "outside", readFile(t, outside))
	})
}

// Guarded creates through the descriptors classify collisions like fs-local.
func TestBeneathGuardedCreateCollisions(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		cases := []struct {
			name  string
			racer func(t *testing.T, target string)
			want  *fs.Error
		}{
			{"a regular file appears", func(t *testing.T, target string) {
				require.NoError(t, os.WriteFile(target, []byte("theirs"), 0o644))
			}, fs.ErrNotObserved},
			{"a directory appears", func(t *testing.T, target string) {
				require.NoError(t, os.Mkdir(target, 0o755))
			}, fs.ErrNotRegularFile},
			{"a dangling symlink appears", func(t *testing.T, target string) {
				require.NoError(t, os.Symlink("nowhere", target))
			}, fs.ErrNotRegularFile},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				fx := newBeneathFixture(t)
				tg := fx.resolveT(filepath.Join(fx.ws, "new.txt"))
				hooks := &atomicHooks{inspectTemp: func(string, string) { tc.racer(t, string(tg.Key)) }}
				_, err := fx.write(tg, "mine", fs.CreateIfAbsent(), hooks)
				assert.True(t, errors.Is(err, tc.want), "%v", err)
				for _, n := range entries(t, fx.ws) {
					assert.NotRegexp(t, `\.tmpdir$`, n)
				}
			})
		}
	})
}

// A failure after the staging directory exists (here an abort) removes it through the
// descriptors; the parents created stay, as in fs-local.
func TestBeneathAbortCleansStaging(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		fx.ctx = ctx
		tg := fx.resolveT(filepath.Join(fx.ws, "p", "f.txt"))
		_, err := fx.write(tg, "x", nil, &atomicHooks{inspectTemp: func(string, string) { cancel() }})
		assert.True(t, errors.Is(err, fs.ErrAborted), "%v", err)
		assert.Empty(t, entries(t, filepath.Join(fx.ws, "p")))
	})
}

// An edit publishes beneath the root with the fs-local semantics.
func TestBeneathEdit(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		path := filepath.Join(fx.ws, "e.txt")
		require.NoError(t, os.WriteFile(path, []byte("\ufeffa\r\nold\r\n"), 0o640))
		out, err := fx.p.EditTextBeneath(fx.ctx, fx.resolveT(path), fs.EditRequest{OldString: "old", NewString: "new"}, nil, fx.beneath)
		require.NoError(t, err)
		assert.Equal(t, "a\nnew\n", out.After)
		assert.Equal(t, "\ufeffa\r\nnew\r\n", readFile(t, path), "BOM and CRLF kept")
		assert.Equal(t, os.FileMode(0o640), permAt(t, path))
		assert.Equal(t, []string{"e.txt"}, entries(t, fx.ws))
	})
}
