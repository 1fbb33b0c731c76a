package hostfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// The held parent moved out of the root (by another writer) after it was opened and before the
// publication: the publication is refused, since the descriptor now names a directory outside
// the root; nothing is published there and the staging directory is cleaned up. The same for a
// guarded create and for an edit.
func TestBeneathParentMovedOutIsRefused(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		for _, intent := range []*fs.WriteIntent{nil, fs.CreateIfAbsent()} {
			fx := newBeneathFixture(t)
			d := filepath.Join(fx.ws, "d")
			require.NoError(t, os.MkdirAll(filepath.Join(d, "deeper"), 0o755))
			tg := fx.resolveT(filepath.Join(d, "deeper", "f.txt"))
			moved := filepath.Join(fx.out, "d")
			hooks := &atomicHooks{inspectTemp: func(string, string) { require.NoError(t, os.Rename(d, moved)) }}
			_, err := fx.write(tg, "x", intent, hooks)
			requireDenied(t, fx, err)
			assert.Empty(t, entries(t, filepath.Join(moved, "deeper")), "nothing published or left outside")
		}
	})
}

// A held parent moved elsewhere inside the root is still beneath it: the publication lands there.
func TestBeneathParentMovedWithinTheRoot(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		d := filepath.Join(fx.ws, "d")
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.Mkdir(filepath.Join(fx.ws, "elsewhere"), 0o755))
		tg := fx.resolveT(filepath.Join(d, "f.txt"))
		moved := filepath.Join(fx.ws, "elsewhere", "d")
		hooks := &atomicHooks{inspectTemp: func(string, string) { require.NoError(t, os.Rename(d, moved)) }}
		_, err := fx.write(tg, "x", nil, hooks)
		require.NoError(t, err)
		assert.Equal(t, "x", readFile(t, filepath.Join(moved, "f.txt")))
		assert.Empty(t, fx.denied)
	})
}
