package sandbox_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

func TestWiderLadder(t *testing.T) {
	assert.Equal(t, []sandbox.Mode{sandbox.WorkspaceWrite, sandbox.DangerFullAccess}, sandbox.Wider(sandbox.ReadOnly))
	assert.Equal(t, []sandbox.Mode{sandbox.DangerFullAccess}, sandbox.Wider(sandbox.WorkspaceWrite))
	assert.Empty(t, sandbox.Wider(sandbox.DangerFullAccess))
	assert.Empty(t, sandbox.Wider("yolo"))
	assert.False(t, sandbox.IsWider(sandbox.WorkspaceWrite, sandbox.WorkspaceWrite), "the same mode is not wider")
	assert.True(t, sandbox.IsWider(sandbox.DangerFullAccess, sandbox.ReadOnly))
	assert.False(t, sandbox.IsWider(sandbox.ReadOnly, sandbox.WorkspaceWrite))
}

func TestVocabularyTexts(t *testing.T) {
	assert.Equal(t, "[sandbox: file access denied under workspace-write mode]", sandbox.DenialMarker(sandbox.WorkspaceWrite))
	assert.Equal(t, "[sandbox: escalation available — retry this exact operation once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]",
		sandbox.EscalationHint(sandbox.SubjectOperation))
	assert.True(t, sandbox.ValidMode(sandbox.ReadOnly))
	assert.False(t, sandbox.ValidMode("yolo"))
	assert.False(t, sandbox.ValidMode(""))
}
