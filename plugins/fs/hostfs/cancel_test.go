package hostfs_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// countdownCtx is a context that reports cancellation from its (n+1)-th Err
// call on, so a test can land a cancellation on every checkpoint in turn.
type countdownCtx struct {
	context.Context
	mu    sync.Mutex
	left  int
	fired bool
	done  chan struct{}
}

func countdown(n int) *countdownCtx {
	return &countdownCtx{Context: context.Background(), left: n, done: make(chan struct{})}
}

func (c *countdownCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fired && c.left == 0 {
		c.fired = true
		close(c.done)
	}
	if c.fired {
		return context.Canceled
	}
	c.left--
	return nil
}

func (c *countdownCtx) Done() <-chan struct{} { return c.done }

func TestMutationsPreCancelled(t *testing.T) {
	big := strings.Repeat("x", 100)
	cases := []struct {
		name   string
		prior  string // "" = absent
		limit  int64
		run    func(p *hostfs.Provider, tg fs.Target) error
		code   fs.Code
		msg    string
		intact bool
	}{
		{"create => write aborted", "", 0, func(p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(cancelled(), tg, "x", nil)
			return err
		}, fs.CodeAborted, "write aborted", true},
		{"overwrite below the limit => read aborted (diff basis)", "old", 0, func(p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(cancelled(), tg, "x", nil)
			return err
		}, fs.CodeAborted, "read aborted", true},
		{"overwrite at the limit => write aborted", "old", 100, func(p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(cancelled(), tg, big, nil)
			return err
		}, fs.CodeAborted, "write aborted", true},
		{"edit => edit aborted", "old", 0, func(p *hostfs.Provider, tg fs.Target) error {
			_, err := p.EditText(cancelled(), tg, edit("old", "new"), nil)
			return err
		}, fs.CodeAborted, "edit aborted", true},
		{"a write guard failure wins", "old", 0, func(p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(cancelled(), tg, "x", fs.ReplaceIfVersion("stale"))
			return err
		}, fs.CodeStaleVersion, `cannot write "%s": file changed since it was read`, true},
		{"an edit guard failure wins", "old", 0, func(p *hostfs.Provider, tg fs.Target) error {
			_, err := p.EditText(cancelled(), tg, edit("old", "new"), &fs.EditGuard{Version: "stale"})
			return err
		}, fs.CodeStaleVersion, `cannot edit "%s": file changed since it was read`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			limit := tc.limit
			if limit == 0 {
				limit = hostfs.DefaultDiffBasisMaxBytes
			}
			p, err := hostfs.New(hostfs.Config{Cwd: dir, DiffBasisMaxBytes: limit}, nil)
			require.NoError(t, err)
			path := filepath.Join(dir, "sub", "f")
			if tc.prior != "" {
				writeFile(t, path, tc.prior)
			}
			before := snapshot(t, path)
			tg := resolve(t, p, path)
			requireFsError(t, tc.run(p, tg), tc.code, strings.ReplaceAll(tc.msg, "%s", tg.DisplayPath))
			assert.Equal(t, before, snapshot(t, path))
			requireClean(t, p, dir)
		})
	}
}

// TestMutationsCancelAtEveryCheckpoint cancels at the 1st, 2nd, ... checkpoint
// until the mutation gets through: every earlier attempt must fail FS_ABORTED
// with the target untouched, no staging residue and an empty lock table.
func TestMutationsCancelAtEveryCheckpoint(t *testing.T) {
	large := strings.Repeat("line\r\n", 200_000) // 1.2 MB: two write chunks, two edit-read chunks, many basis chunks
	// LF text for the edit (one read chunk; decoding large texts is slow under -race).
	lfLarge := strings.Repeat("line\n", 50_000)
	cases := []struct {
		name  string
		prior string
		run   func(ctx context.Context, p *hostfs.Provider, tg fs.Target) error
		want  string
		verbs []string // the abort messages that must occur
	}{
		{"create", "", func(ctx context.Context, p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(ctx, tg, large, nil)
			return err
		}, large, []string{"write aborted"}},
		{"guarded create", "", func(ctx context.Context, p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(ctx, tg, "new", fs.CreateIfAbsent())
			return err
		}, "new", []string{"write aborted"}},
		{"overwrite", "old\n", func(ctx context.Context, p *hostfs.Provider, tg fs.Target) error {
			_, err := p.WriteText(ctx, tg, large, nil)
			return err
		}, large, []string{"read aborted", "write aborted"}},
		{"edit", lfLarge + "END\n", func(ctx context.Context, p *hostfs.Provider, tg fs.Target) error {
			_, err := p.EditText(ctx, tg, fs.EditRequest{OldString: "END", NewString: "FIN"}, nil)
			return err
		}, lfLarge + "FIN\n", []string{"edit aborted", "write aborted"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f")
			seen := map[string]int{}
			if tc.prior != "" {
				writeFile(t, path, tc.prior) // aborted attempts leave it untouched
			}
			before := snapshot(t, path)
			for k := 0; ; k++ {
				require.Less(t, k, 100, "never completed")
				tg := resolve(t, p, path)
				err := tc.run(countdown(k), p, tg)
				if err == nil {
					assert.Equal(t, tc.want, readDisk(t, path))
					requireClean(t, p, dir)
					break
				}
				var fe *fs.Error
				require.ErrorAs(t, err, &fe)
				require.Equal(t, fs.CodeAborted, fe.Kind, fe.Message)
				require.ErrorIs(t, err, context.Canceled, "the context error is the cause")
				seen[fe.Message]++
				require.Equal(t, before, snapshot(t, path), "checkpoint %d: target changed", k)
				requireClean(t, p, dir)
			}
			for _, v := range tc.verbs {
				assert.Positive(t, seen[v], "no %q checkpoint", v)
			}
			t.Logf("abort checkpoints: %v", seen)
		})
	}
}
