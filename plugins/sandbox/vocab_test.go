package sandbox_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

func TestWiderLadder(t *testing.T) {
	assert.Equal(t, []fs.SandboxMode{fs.SandboxWorkspaceWrite, fs.SandboxDangerFullAccess}, sandbox.Wider(fs.SandboxReadOnly))
	assert.Equal(t, []fs.SandboxMode{fs.SandboxDangerFullAccess}, sandbox.Wider(fs.SandboxWorkspaceWrite))
	assert.Empty(t, sandbox.Wider(fs.SandboxDangerFullAccess))
	assert.Empty(t, sandbox.Wider("yolo"))
	assert.False(t, sandbox.IsWider(fs.SandboxWorkspaceWrite, fs.SandboxWorkspaceWrite), "the same mode is not wider")
	assert.True(t, sandbox.IsWider(fs.SandboxDangerFullAccess, fs.SandboxReadOnly))
	assert.False(t, sandbox.IsWider(fs.SandboxReadOnly, fs.SandboxWorkspaceWrite))
}

func TestVocabularyTexts(t *testing.T) {
	assert.Equal(t, "[sandbox: file access denied under workspace-write mode]", sandbox.DenialMarker(fs.SandboxWorkspaceWrite))
	assert.Equal(t, "[sandbox: escalation available — retry this exact operation once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]",
		sandbox.EscalationHint(sandbox.SubjectOperation))
	assert.True(t, sandbox.ValidMode(fs.SandboxReadOnly))
	assert.False(t, sandbox.ValidMode("yolo"))
	assert.False(t, sandbox.ValidMode(""))
}
