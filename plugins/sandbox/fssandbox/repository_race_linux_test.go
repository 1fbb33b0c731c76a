package fssandbox_test

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// Three concurrent writes that would each add one piece of a repository layout (HEAD, objects/,
// refs/) to the same fresh directory: each fence alone sees an incomplete layout, so the last
// piece must be refused on the held directory, serialised with the others' additions. The layout
// is never completed, in any round.
func TestRepositoryLayoutRaceNeverCompletes(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	pieces := []string{"HEAD", "objects/info/packs", "refs/heads/main"}
	var refused int
	for round := range 60 {
		x := filepath.Join(w.ws, "x"+strconv.Itoa(round))
		targets := make([]fs.Target, len(pieces))
		for i, p := range pieces {
			targets[i] = w.target(t, filepath.Join(x, p))
		}
		start := make(chan struct{})
		errs := make([]error, len(pieces))
		var wg sync.WaitGroup
		for i := range pieces {
			wg.Go(func() {
				<-start
				_, errs[i] = w.fs.WriteText(w.ctx, targets[i], "x\n", nil)
			})
		}
		close(start)
		wg.Wait()
		complete := true
		for i, p := range pieces {
			if errs[i] != nil {
				requireDenied(t, errs[i], targets[i].DisplayPath, sandbox.WorkspaceWrite)
				require.ErrorIs(t, errs[i], fssandbox.ErrProtectedPath)
				refused++
			}
			if _, err := os.Lstat(filepath.Join(x, firstComponent(p))); err != nil {
				complete = false
			}
		}
		require.False(t, complete, "round %d: HEAD, objects and refs all exist in %s", round, x)
	}
	assert.Positive(t, refused)
}

func firstComponent(p string) string {
	for i := range len(p) {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return p
}

// A workspace directory exchanged in a loop with a nested .git and with an embedded bare
// repository while writes go below it: a write whose held directory is, at publication, a .git
// of its parent or a repository is refused there as a protected path (on the held descriptors,
// after the fence passed it).
func TestRepositoryExchangeRefusedAtPublication(t *testing.T) {
	for name, other := range map[string]string{"nested .git": filepath.Join("sub", ".git"), "bare repository": "assets"} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, sandbox.WorkspaceWrite, nil)
			d := filepath.Join(w.ws, "d")
			require.NoError(t, os.Mkdir(d, 0o755))
			makeGitDir(t, filepath.Join(w.ws, other))
			_, atPublication, _ := writesWhileExchanged(t, w, d, filepath.Join(w.ws, other), func(_, atPublication, _ int) bool { return atPublication > 0 })
			assert.Positive(t, atPublication, "the held directories were checked right before publication")
			requireNoResidue(t, w.ws)
		})
	}
}
