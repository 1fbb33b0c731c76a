package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The statements are ordered by Order whatever the order of their listeners, an empty one is left
// out, each is rendered for the session asked about, and a disposed contributor's is gone.
func TestInstructionsAreOrderedAndSkipEmpty(t *testing.T) {
	root := kerneltest.NewRoot(t)
	assert.Empty(t, tools.InstructionsFor(context.Background(), root, tools.NewSession("s")))
	d115, err := tools.ContributeInstruction(root, "approval:policy", 115, func(s *tools.Session) string { return "second " + s.ID() })
	require.NoError(t, err)
	_, err = tools.ContributeInstruction(root, "sandbox:policy", 110, func(*tools.Session) string { return "first" })
	require.NoError(t, err)
	_, err = tools.ContributeInstruction(root, "quiet", 100, func(*tools.Session) string { return "" })
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "second s"}, tools.InstructionsFor(context.Background(), root, tools.NewSession("s")))
	require.NoError(t, d115())
	assert.Equal(t, []string{"first"}, tools.InstructionsFor(context.Background(), root, tools.NewSession("s")))
}
