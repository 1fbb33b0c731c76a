package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// A workspace directory exchanged in a loop with the directory core.hooksPath names while writes
// go below it: a write whose held directory is, at publication, the hooks directory is refused
// there as a protected path (docs/sandbox.md "Paths a repository's config names").
func TestHooksDirectoryExchangeRefusedAtPublication(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[core]\n\thooksPath = .husky\n")
	d := filepath.Join(w.ws, "d")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(w.ws, ".husky"), 0o755))
	_, atPublication, _ := writesWhileExchanged(t, w, d, filepath.Join(w.ws, ".husky"), func(_, atPublication, _ int) bool { return atPublication > 0 })
	assert.Positive(t, atPublication, "the held directories were checked against the hooks directory right before publication")
	requireNoResidue(t, w.ws)
}
