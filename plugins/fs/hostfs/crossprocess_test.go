package hostfs_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

const (
	crossDirEnv    = "CORDON_FSLOCAL_CROSS_DIR"
	crossWorkerEnv = "CORDON_FSLOCAL_CROSS_WORKER"
	crossWorkers   = 4
	crossRounds    = 25
)

// TestHelperCrossProcessEdit is a worker of TestCrossProcessGuardedEditsOneWins: for each round r
// it waits for the file go-r, reads the version the round starts from in ver-r, attempts a guarded
// edit of doc.txt from that version and records "ok" or the error code in res-r-<worker>. It does
// nothing in a normal test run.
func TestHelperCrossProcessEdit(t *testing.T) {
	dir, worker := os.Getenv(crossDirEnv), os.Getenv(crossWorkerEnv)
	if dir == "" {
		return
	}
	p, err := hostfs.New(hostfs.Config{Cwd: dir, DiffBasisMaxBytes: 1 << 20}, nil)
	if err != nil {
		os.Exit(2)
	}
	ctx := context.Background()
	tg, err := p.Resolve(ctx, "doc.txt", fs.ResolveOptions{})
	if err != nil {
		os.Exit(2)
	}
	for r := range crossRounds {
		for !exists(filepath.Join(dir, "go-"+strconv.Itoa(r))) {
			time.Sleep(50 * time.Microsecond)
		}
		ver, _ := os.ReadFile(filepath.Join(dir, "ver-"+strconv.Itoa(r)))
		req := fs.EditRequest{OldString: fmt.Sprintf("round %d\n", r), NewString: fmt.Sprintf("round %d\nby %s\n", r+1, worker)}
		res := "ok"
		if _, err := p.EditText(ctx, tg, req, &fs.EditGuard{Version: fs.Version(ver)}); err != nil {
			res = string(fs.CodeOf(err))
			if res == "" {
				res = err.Error()
			}
		}
		final := filepath.Join(dir, fmt.Sprintf("res-%d-%s", r, worker))
		_ = os.WriteFile(final+".part", []byte(res), 0o600)
		_ = os.Rename(final+".part", final) // the parent never sees a half-written result
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Guarded edits from one version, made at the same moment by separate processes: exactly one wins
// each round and the others fail FS_STALE_VERSION; no update is lost. The provider's per-target
// lock is in-process only; the directory flock taken around every mutation extends the guarantee
// across processes.
func TestCrossProcessGuardedEditsOneWins(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	p, dir := newProvider(t)
	doc := filepath.Join(dir, "doc.txt")
	require.NoError(t, os.WriteFile(doc, []byte("round 0\n"), 0o644))
	var procs []*exec.Cmd
	for w := range crossWorkers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCrossProcessEdit$", "-test.count=1")
		cmd.Env = append(os.Environ(), crossDirEnv+"="+dir, crossWorkerEnv+"="+strconv.Itoa(w))
		require.NoError(t, cmd.Start())
		procs = append(procs, cmd)
	}
	t.Cleanup(func() {
		for _, c := range procs {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	})
	tg := resolve(t, p, "doc.txt")
	want := "round 0\n"
	for r := range crossRounds {
		info, err := p.Stat(context.Background(), tg)
		require.NoError(t, err)
		// ver-r is complete before go-r appears, which is what the workers wait for.
		require.NoError(t, os.WriteFile(filepath.Join(dir, "ver-"+strconv.Itoa(r)), []byte(info.Version), 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go-"+strconv.Itoa(r)), nil, 0o600))
		var results []string
		deadline := time.Now().Add(30 * time.Second)
		for w := range crossWorkers {
			path := filepath.Join(dir, fmt.Sprintf("res-%d-%d", r, w))
			for !exists(path) {
				require.True(t, time.Now().Before(deadline), "round %d: worker %d did not answer", r, w)
				time.Sleep(time.Millisecond)
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			results = append(results, string(b))
		}
		winners := 0
		for w, res := range results {
			if res == "ok" {
				winners++
				want = strings.Replace(want, fmt.Sprintf("round %d\n", r), fmt.Sprintf("round %d\nby %d\n", r+1, w), 1)
				continue
			}
			assert.Equal(t, string(fs.CodeStaleVersion), res, "round %d worker %d", r, w)
		}
		require.Equal(t, 1, winners, "round %d: exactly one guarded edit wins (results %v)", r, results)
		got, err := os.ReadFile(doc)
		require.NoError(t, err)
		require.Equal(t, want, string(got), "round %d: no update lost", r)
	}
}
