package fssandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// benchWrite replaces ws/sub/bench.txt (a 64-byte-line text of size bytes) in a loop through
// write, after one initial write, so every iteration is the common "update" case.
func benchWrite(b *testing.B, size int, write func(ctx context.Context, tg fs.Target, content string) error, resolve func(string) (fs.Target, error), ws string) {
	line := strings.Repeat("x", 63) + "\n"
	content := strings.Repeat(line, size/len(line)+1)[:size]
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		b.Fatal(err)
	}
	tg, err := resolve(filepath.Join(ws, "sub", "bench.txt"))
	if err != nil {
		b.Fatal(err)
	}
	if err := write(context.Background(), tg, content); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := write(context.Background(), tg, content); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSandboxed(b *testing.B, size int, mode sandbox.Mode, perCall bool) {
	w := newWorld(b, mode, nil)
	var policy *sandbox.CallPolicy
	if perCall {
		policy = w.policyFor(mode)
	}
	write := func(ctx context.Context, tg fs.Target, s string) error {
		_, err := w.fs.WriteText(sandbox.WithPolicy(ctx, policy), tg, s, nil)
		return err
	}
	resolve := func(p string) (fs.Target, error) { return w.fs.Resolve(w.ctx, p, fs.ResolveOptions{}) }
	benchWrite(b, size, write, resolve, w.ws)
}

func benchLocal(b *testing.B, size int) {
	ws := filepath.Join(sandboxtest.OutsideDir(b), "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil { // a provider's cwd must exist
		b.Fatal(err)
	}
	local, err := hostfs.New(hostfs.Config{Cwd: ws}, nil)
	if err != nil {
		b.Fatal(err)
	}
	write := func(ctx context.Context, tg fs.Target, s string) error {
		_, err := local.WriteText(ctx, tg, s, nil)
		return err
	}
	resolve := func(p string) (fs.Target, error) { return local.Resolve(context.Background(), p, fs.ResolveOptions{}) }
	benchWrite(b, size, write, resolve, ws)
}

// BenchmarkWriteText4KiB compares one 4 KiB replacing write: fs-local, fs-sandbox under
// workspace-write (fence + confined descriptors) with the policy on the call and resolved by the
// policy service, and fs-sandbox under danger-full-access (the fence delegates).
func BenchmarkWriteText4KiB(b *testing.B) {
	b.Run("fs-local", func(b *testing.B) { benchLocal(b, 4<<10) })
	b.Run("fs-sandbox/workspace-write", func(b *testing.B) { benchSandboxed(b, 4<<10, sandbox.WorkspaceWrite, true) })
	b.Run("fs-sandbox/workspace-write/agentless", func(b *testing.B) { benchSandboxed(b, 4<<10, sandbox.WorkspaceWrite, false) })
	b.Run("fs-sandbox/danger-full-access", func(b *testing.B) { benchSandboxed(b, 4<<10, sandbox.DangerFullAccess, true) })
}

// BenchmarkWriteTextInRepository is the 4 KiB workspace-write replacement inside a repository
// whose config names hooks, a filter and an include (the configs are read once, then checked by
// their stat on every decision).
func BenchmarkWriteTextInRepository(b *testing.B) {
	w := newWorld(b, sandbox.WorkspaceWrite, nil)
	makeGitDir(b, filepath.Join(w.ws, ".git"))
	config := "[core]\n\thooksPath = .husky/_\n\tfsmonitor = false\n[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n" +
		"\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n[include]\n\tpath = ../.gitconfig.local\n"
	if err := os.WriteFile(filepath.Join(w.ws, ".git", "config"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	policy := w.policyFor(sandbox.WorkspaceWrite)
	write := func(ctx context.Context, tg fs.Target, s string) error {
		_, err := w.fs.WriteText(sandbox.WithPolicy(ctx, policy), tg, s, nil)
		return err
	}
	resolve := func(p string) (fs.Target, error) { return w.fs.Resolve(w.ctx, p, fs.ResolveOptions{}) }
	benchWrite(b, 4<<10, write, resolve, w.ws)
}

// BenchmarkWriteText1MiB is the same comparison for a 1 MiB file.
func BenchmarkWriteText1MiB(b *testing.B) {
	b.Run("fs-local", func(b *testing.B) { benchLocal(b, 1<<20) })
	b.Run("fs-sandbox/workspace-write", func(b *testing.B) { benchSandboxed(b, 1<<20, sandbox.WorkspaceWrite, true) })
}

// BenchmarkFenceDecision is the cost of the decision alone, without the write: a workspace-write
// denial of a path outside every root (fresh resolution, writable roots, and the identity
// fallback that stats every ancestor for each root), a read-only denial (no I/O), and a
// workspace-write denial of a path inside a nested bare repository three levels down (the
// repository check after containment), and the denial of a hook in the directory a repository's
// core.hooksPath names (the config read, checked by its stat, and its named paths resolved).
func BenchmarkFenceDecision(b *testing.B) {
	b.Run("workspace-write-nested-repository", func(b *testing.B) {
		w := newWorld(b, sandbox.WorkspaceWrite, nil)
		makeGitDir(b, filepath.Join(w.ws, "a", "b", "assets"))
		tg := w.target(b, filepath.Join(w.ws, "a", "b", "assets", "config"))
		policy := w.policyFor(sandbox.WorkspaceWrite)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), tg, "x", nil); err == nil {
				b.Fatal("not denied")
			}
		}
	})
	b.Run("workspace-write-hooks-path", func(b *testing.B) {
		w := newWorld(b, sandbox.WorkspaceWrite, nil)
		makeGitDir(b, filepath.Join(w.ws, ".git"))
		if err := os.WriteFile(filepath.Join(w.ws, ".git", "config"), []byte("[core]\n\thooksPath = .husky\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		tg := w.target(b, filepath.Join(w.ws, ".husky", "pre-commit"))
		policy := w.policyFor(sandbox.WorkspaceWrite)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), tg, "x", nil); err == nil {
				b.Fatal("not denied")
			}
		}
	})
	for _, mode := range []sandbox.Mode{sandbox.WorkspaceWrite, sandbox.ReadOnly} {
		b.Run(string(mode), func(b *testing.B) {
			w := newWorld(b, mode, nil)
			tg := w.target(b, filepath.Join(w.out, "a", "b", "denied.txt"))
			policy := w.policyFor(mode)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), tg, "x", nil); err == nil {
					b.Fatal("not denied")
				}
			}
		})
	}
}
