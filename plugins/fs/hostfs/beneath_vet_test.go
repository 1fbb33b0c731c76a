package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errVetForTest = errors.New("vetoed for test")

// Beneath.Adding is asked, on the held directory, for every entry a confined write adds: each
// missing parent it creates, in order, and the published target (new or replaced); never for a
// parent that exists. Its release runs right after the entry was made.
func TestBeneathAddingSeesEveryNewEntry(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		require.NoError(t, os.MkdirAll(filepath.Join(fx.ws, "a"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(fx.ws, "a", "mark-a"), nil, 0o644))
		type call struct {
			name       string
			inA, fresh bool
		}
		var calls []call
		released := map[string]bool{}
		fx.beneath.Adding = func(dir Dir, name string) (func(), error) {
			calls = append(calls, call{name: name, inA: dir.Has("mark-a"), fresh: !dir.Has(name)})
			return func() { released[name] = dir.Has(name) }, nil
		}
		_, err := fx.p.WriteTextBeneath(fx.ctx, fx.resolveT(filepath.Join(fx.ws, "a", "b", "c", "f.txt")), "x", nil, fx.beneath)
		require.NoError(t, err)
		assert.Equal(t, []call{{"b", true, true}, {"c", false, true}, {"f.txt", false, true}}, calls)
		assert.Equal(t, map[string]bool{"b": true, "c": true, "f.txt": true}, released, "released once the entry exists")

		calls = nil
		_, err = fx.p.WriteTextBeneath(fx.ctx, fx.resolveT(filepath.Join(fx.ws, "a", "b", "c", "f.txt")), "y", nil, fx.beneath)
		require.NoError(t, err)
		assert.Equal(t, []call{{"f.txt", false, false}}, calls, "a replaced target is asked about; existing parents are not")
	})
}

// A refusal of Adding stops the write before the entry is made: Deny gets a cause wrapping the
// refusal and ErrEscape; the parents made before the refused one stay, nothing is published and
// no staging residue is left.
func TestBeneathAddingRefuses(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		for _, refused := range []string{"c", "f.txt"} {
			fx := newBeneathFixture(t)
			fx.beneath.Adding = func(_ Dir, name string) (func(), error) {
				if name == refused {
					return func() { t.Error("a refusal is not released") }, errVetForTest
				}
				return nil, nil
			}
			_, err := fx.p.WriteTextBeneath(fx.ctx, fx.resolveT(filepath.Join(fx.ws, "b", "c", "f.txt")), "x", nil, fx.beneath)
			requireDenied(t, fx, err)
			assert.ErrorIs(t, err, errVetForTest)
			assert.NoFileExists(t, filepath.Join(fx.ws, "b", "c", "f.txt"))
			if refused == "c" {
				assert.NoDirExists(t, filepath.Join(fx.ws, "b", "c"))
			} else {
				assert.Empty(t, entries(t, filepath.Join(fx.ws, "b", "c")), "no residue")
			}
		}
	})
}

// Beneath.Holding is asked right before publication for each directory from the held parent up
// to the root included, with its current parent; a refusal there (here: a HEAD that appeared in
// an ancestor after the parent was opened) refuses the publication and nothing lands.
func TestBeneathHoldingAtPublication(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		a := filepath.Join(fx.ws, "a")
		require.NoError(t, os.MkdirAll(filepath.Join(a, "b"), 0o755))
		var chain []string
		fx.beneath.Holding = func(dir, parent Dir) error {
			for _, name := range []string{"b", "a", "ws"} {
				if parent.Names(name, dir) {
					chain = append(chain, name)
				}
			}
			if dir.Has("HEAD") {
				return errVetForTest
			}
			return nil
		}
		tg := fx.resolveT(filepath.Join(a, "b", "f.txt"))
		_, err := fx.write(tg, "x", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"b", "a", "ws"}, chain, "the held parent, its ancestors, the root")

		hooks := &atomicHooks{inspectTemp: func(string, string) {
			require.NoError(t, os.WriteFile(filepath.Join(a, "HEAD"), nil, 0o644))
		}}
		_, err = fx.write(fx.resolveT(filepath.Join(a, "b", "g.txt")), "x", nil, hooks)
		requireDenied(t, fx, err)
		assert.ErrorIs(t, err, errVetForTest)
		assert.NoFileExists(t, filepath.Join(a, "b", "g.txt"))
		assert.Equal(t, []string{"f.txt"}, entries(t, filepath.Join(a, "b")), "no residue")
	})
}

// Dir.Has does not follow a symlinked entry (a dangling one exists); Dir.Names does.
func TestDirLookups(t *testing.T) {
	fx := newBeneathFixture(t)
	require.NoError(t, os.Mkdir(filepath.Join(fx.ws, "real"), 0o755))
	require.NoError(t, os.Symlink("real", filepath.Join(fx.ws, "link")))
	require.NoError(t, os.Symlink("nowhere", filepath.Join(fx.ws, "dangling")))
	var got []bool
	fx.beneath.Holding = func(dir, parent Dir) error {
		if got == nil { // the first call: the held parent (real) in the root
			got = []bool{parent.Has("dangling"), parent.Has("missing"),
				parent.Names("real", dir), parent.Names("link", dir), parent.Names("dangling", dir), parent.Names("missing", dir)}
		}
		return nil
	}
	_, err := fx.p.WriteTextBeneath(fx.ctx, fx.resolveT(filepath.Join(fx.ws, "real", "f.txt")), "x", nil, fx.beneath)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true, true, false, false}, got)
}
