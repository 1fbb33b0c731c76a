package fshistory_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The child's environment: killChildEnv is "<workspace>\n<store>"; childWritesEnv, when set, stops
// it after that many writes; childPrefixEnv prefixes its file names.
const (
	killChildEnv   = "FSHISTORY_KILL_CHILD"
	childWritesEnv = "FSHISTORY_CHILD_WRITES"
	childPrefixEnv = "FSHISTORY_CHILD_PREFIX"
)

// generation is the content the child writes at step n: a header naming n and the payload's
// length, then a payload derived from n, so a torn or mixed content is recognised.
func generation(n int) string {
	size := (n * 7919) % (192 << 10)
	return fmt.Sprintf("gen %d %d\n", n, size) + strings.Repeat(string(rune('a'+n%26)), size)
}

// wholeGeneration reports whether s is generation(n) for its n.
func wholeGeneration(s string) bool {
	var n, size int
	if _, err := fmt.Sscanf(s, "gen %d %d\n", &n, &size); err != nil {
		return false
	}
	return s == generation(n)
}

// TestKillChild is the child of TestKilledWritersLeaveWholeRecords: it writes generations to
// three files through fs-local with fs-history until it is killed.
func TestKillChild(t *testing.T) {
	spec, ok := os.LookupEnv(killChildEnv)
	if !ok {
		t.Skip("child of TestKilledWritersLeaveWholeRecords")
	}
	ws, store, _ := strings.Cut(spec, "\n")
	fsys := fs.Service.Must(composeRecorder(t, ws, store))
	ctx := history.WithActor(context.Background(), history.Actor{Session: "child", Tool: "write"})
	start := time.Now().Nanosecond()
	limit, _ := strconv.Atoi(os.Getenv(childWritesEnv)) // 0: until killed
	prefix := os.Getenv(childPrefixEnv)
	for n := start; limit == 0 || n < start+limit; n++ {
		tg, err := fsys.Resolve(ctx, prefix+"f"+strconv.Itoa(n%3)+".txt", fs.ResolveOptions{})
		require.NoError(t, err)
		_, err = fsys.WriteText(ctx, tg, generation(n), nil)
		require.NoError(t, err)
	}
}

// A writer killed with SIGKILL at random points, 100 times, leaves the store whole: after the next
// start every record is settled and has its content, whole (the digest matches, the content is
// one generation); nothing unreferenced survives the sweep; every file is one whole generation;
// the records of each file form an unbroken chain (each change's version before is the version
// after the change before it: no change was published without its record); and the newest change
// of each file undoes byte for byte.
func TestKilledWritersLeaveWholeRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 100 processes")
	}
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	store := filepath.Join(t.TempDir(), "history")
	const kills = 100
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), killChildEnv+"="+ws+"\n"+store)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		time.Sleep(time.Duration(20+rand.IntN(120)) * time.Millisecond) // a random kill point
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		err := cmd.Wait()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "kill %d: %s", i, out.String())
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the child ended before it was killed: %s", i, out.String())
		}
	}

	// The next start: fs-history sweeps the store and settles what the last kill left pending.
	lg, ok := history.Service.Get(composeRecorder(t, ws, store))
	require.True(t, ok)
	st, fsys := lg.Store, lg.FS
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	digests := map[string]bool{}
	for _, r := range recs {
		assert.False(t, r.Pending, "record %s is still pending after the next start", r.ID)
		assert.False(t, r.Interrupted, r.ID)
		if !r.Existed {
			continue
		}
		require.True(t, r.Kept, r.ID)
		content, err := st.Content(r)
		require.NoError(t, err, "record %s has no whole content", r.ID)
		assert.True(t, wholeGeneration(string(content)), "record %s: content is not one whole generation", r.ID)
		digests[r.Digest] = true
	}
	var files []string
	filepath.WalkDir(filepath.Join(store, "blobs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, d.Name())
		}
		return nil
	})
	for _, f := range files {
		assert.True(t, digests[f], "content file %s left after the sweep", f)
	}

	gaps, undone := 0, 0
	for i := range 3 {
		p := filepath.Join(ws, "f"+strconv.Itoa(i)+".txt")
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		require.True(t, wholeGeneration(string(data)), "%s is not one whole generation", p)
		var chain []history.Record
		for j := len(recs) - 1; j >= 0; j-- {
			if recs[j].Path == p {
				chain = append(chain, recs[j])
			}
		}
		for j := 1; j < len(chain); j++ {
			if chain[j].VersionBefore != chain[j-1].VersionAfter {
				gaps++ // a change published without its record
			}
		}
		tg, err := fsys.Resolve(context.Background(), p, fs.ResolveOptions{})
		require.NoError(t, err)
		info, err := fsys.Stat(context.Background(), tg)
		require.NoError(t, err)
		last := chain[len(chain)-1]
		if string(info.Version) != last.VersionAfter {
			gaps++
			continue
		}
		if !last.Existed { // the file's last change created it (a slow child got few writes in): undo removes it
			_, err = history.Undo(context.Background(), fsys, st, history.Selector{Target: tg, Session: "child"})
			require.NoError(t, err)
			assert.NoFileExists(t, p)
			undone++
			continue
		}
		want, err := st.Content(last)
		require.NoError(t, err)
		_, err = history.Undo(context.Background(), fsys, st, history.Selector{Target: tg, Session: "child"})
		require.NoError(t, err)
		assert.Equal(t, string(want), readString(t, p))
		undone++
	}
	t.Logf("%d kills: %d records, %d contents; %d changes published without a record; %d of 3 files undone byte for byte",
		kills, len(recs), len(digests), gaps, undone)
	assert.Zero(t, gaps, "every published change has its record")
	assert.Equal(t, 3, undone)
}

func readString(t *testing.T, p string) string { return string(readBytes(t, p)) }

// composeRecorder loads fs-local over ws, tools and fs-history with its store in store.
func composeRecorder(t *testing.T, ws, store string) *kernel.Context {
	t.Helper()
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fslocal.Plugin, fslocal.Config{Cwd: ws, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	var cfg fshistory.Config
	cfg.Defaults()
	cfg.Dir = store
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fshistory.Plugin, &cfg))
	return root
}

// Three processes write at once through one store (each its own files): bbolt's lock makes them
// take turns, none gives up, and every change is recorded, settled and chained.
func TestSeveralProcessesShareTheStore(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	store := filepath.Join(t.TempDir(), "history")
	const procs, writes = 3, 40
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), killChildEnv+"="+ws+"\n"+store, childWritesEnv+"="+strconv.Itoa(writes), childPrefixEnv+"=p"+strconv.Itoa(i))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, cmd := range cmds {
		require.NoError(t, cmd.Wait(), outs[i].String())
		assert.NotContains(t, outs[i].String(), "store is busy")
	}
	lg, ok := history.Service.Get(composeRecorder(t, ws, store))
	require.True(t, ok)
	recs, err := lg.Store.List(history.Match{}, nil)
	require.NoError(t, err)
	assert.Len(t, recs, procs*writes)
	byPath := map[string][]history.Record{}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		assert.False(t, r.Pending, r.ID)
		byPath[r.Path] = append(byPath[r.Path], r)
	}
	assert.Len(t, byPath, procs*3)
	for p, chain := range byPath {
		assert.False(t, chain[0].Existed, p)
		for j := 1; j < len(chain); j++ {
			assert.Equal(t, chain[j-1].VersionAfter, chain[j].VersionBefore, p)
		}
	}
}
