package hostfs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// TestGuardedMutationsOneWins races two guarded mutations based on the same
// version, 1,000 times (100 with -short), rotating write/write, edit/edit and
// write/edit pairs, one side going through a symlink alias. Each round exactly
// one wins, the loser gets FS_STALE_VERSION, the file holds the winner's
// result (no lost update), and nothing is left in the lock table or on disk.
// Rounds run on several files at once to overlap the fsyncs.
func TestGuardedMutationsOneWins(t *testing.T) {
	rounds := 1000
	if testing.Short() {
		rounds = 100
	}
	const files = raceFiles
	p, dir := newProvider(t)
	var wg sync.WaitGroup
	for f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raceFile(t, p, dir, f, rounds/files)
		}()
	}
	wg.Wait()
	requireClean(t, p, dir)
}

// raceFiles is how many files the rounds are spread over.
const raceFiles = 8

type mutation func(ctx context.Context, tg fs.Target, v fs.Version, cur, next string) error

func raceFile(t *testing.T, p *hostfs.Provider, dir string, f, rounds int) {
	name := fmt.Sprintf("f%d.txt", f)
	if err := os.WriteFile(filepath.Join(dir, name), []byte("r0\n"), 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Symlink(name, filepath.Join(dir, name+".link")); err != nil {
		t.Error(err)
		return
	}
	direct := resolve(t, p, name)
	alias := resolve(t, p, name+".link")
	if direct.Key != alias.Key {
		t.Errorf("alias key %q != %q", alias.Key, direct.Key)
		return
	}
	write := func(ctx context.Context, tg fs.Target, v fs.Version, _, next string) error {
		_, err := p.WriteText(ctx, tg, next, fs.ReplaceIfVersion(v))
		return err
	}
	edit := func(ctx context.Context, tg fs.Target, v fs.Version, cur, next string) error {
		_, err := p.EditText(ctx, tg, fs.EditRequest{OldString: cur, NewString: next}, &fs.EditGuard{Version: v})
		return err
	}
	pairs := [][2]mutation{{write, write}, {edit, edit}, {write, edit}, {edit, write}}
	cur := "r0\n"
	for i := range rounds {
		info, err := p.Stat(context.Background(), direct)
		if err != nil || info == nil {
			t.Errorf("stat: %v", err)
			return
		}
		next := [2]string{fmt.Sprintf("r%d-a\n", i+1), fmt.Sprintf("r%d-b\n", i+1)}
		pair := pairs[i%len(pairs)]
		targets := [2]fs.Target{direct, alias}
		var errs [2]error
		start := make(chan struct{})
		var round sync.WaitGroup
		for side := range 2 {
			round.Add(1)
			go func() {
				defer round.Done()
				<-start
				errs[side] = pair[side](context.Background(), targets[side], info.Version, cur, next[side])
			}()
		}
		close(start)
		round.Wait()
		winner := -1
		for side, err := range errs {
			switch {
			case err == nil && winner == -1:
				winner = side
			case err == nil:
				t.Errorf("round %d: both sides won", i)
				return
			case fs.CodeOf(err) != fs.CodeStaleVersion:
				t.Errorf("round %d: loser error %v, want FS_STALE_VERSION", i, err)
				return
			}
		}
		if winner == -1 {
			t.Errorf("round %d: nobody won: %v", i, errs)
			return
		}
		b, err := os.ReadFile(string(direct.Key))
		if err != nil || string(b) != next[winner] {
			t.Errorf("round %d: file %q (%v), want the winner's %q", i, b, err, next[winner])
			return
		}
		if n := hostfs.LockCount(p); n > raceFiles {
			t.Errorf("round %d: %d lock entries", i, n)
			return
		}
		cur = next[winner]
	}
}

// TestUnguardedWritesSerialize runs unguarded writes and createIfAbsent
// writes on one file concurrently: every unguarded write succeeds atomically
// (the file ends as one writer's complete content), exactly one guarded create
// wins and the others get FS_NOT_OBSERVED, and nothing is left behind.
func TestUnguardedWritesSerialize(t *testing.T) {
	p, dir := newProvider(t)
	const n = 16
	for round := range 10 {
		tg := resolve(t, p, fmt.Sprintf("r%d/f.txt", round))
		contents := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			contents[i] = fmt.Sprintf("%02d", i) + string(make([]byte, 64<<10))
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				var intent *fs.WriteIntent
				if i%2 == 0 {
					intent = fs.CreateIfAbsent()
				}
				_, errs[i] = p.WriteText(context.Background(), tg, contents[i], intent)
			}()
		}
		close(start)
		wg.Wait()
		creators := 0
		for i, err := range errs {
			switch {
			case i%2 == 1 && err != nil:
				t.Fatalf("unguarded write %d: %v", i, err)
			case i%2 == 0 && err == nil:
				creators++
			case i%2 == 0 && fs.CodeOf(err) != fs.CodeNotObserved:
				t.Fatalf("guarded create %d: %v", i, err)
			}
		}
		if creators > 1 {
			t.Fatalf("round %d: %d guarded creates won", round, creators)
		}
		got, err := os.ReadFile(string(tg.Key))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range contents {
			found = found || string(got) == c
		}
		if !found {
			t.Fatalf("round %d: file is not one writer's complete content", round)
		}
	}
	requireClean(t, p, dir)
}
