package sandbox_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// The call's policy rides its context: what WithPolicy puts on it PolicyFrom returns (on derived
// contexts too); without one, or with a nil one, the provider's default stands (nil).
func TestPolicyRidesTheContext(t *testing.T) {
	ctx := context.Background()
	assert.Nil(t, sandbox.PolicyFrom(ctx))
	assert.Equal(t, ctx, sandbox.WithPolicy(ctx, nil), "a nil policy leaves ctx as it is")
	p := &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/ws", SessionID: "s1"}
	with := sandbox.WithPolicy(ctx, p)
	assert.Same(t, p, sandbox.PolicyFrom(with))
	derived, cancel := context.WithCancel(with)
	defer cancel()
	assert.Same(t, p, sandbox.PolicyFrom(derived))
	q := &sandbox.CallPolicy{Mode: sandbox.DangerFullAccess}
	assert.Same(t, q, sandbox.PolicyFrom(sandbox.WithPolicy(with, q)), "the innermost policy wins")
}

type confiner struct {
	fs.FileSystem
	mode sandbox.Mode
}

func (c confiner) SandboxMode() sandbox.Mode { return c.mode }

// The capability fact: a filesystem confines when it is a Confiner with a mode.
func TestConfiningMode(t *testing.T) {
	mode, ok := sandbox.ConfiningMode(confiner{mode: sandbox.ReadOnly})
	assert.True(t, ok)
	assert.Equal(t, sandbox.ReadOnly, mode)
	_, ok = sandbox.ConfiningMode(confiner{})
	assert.False(t, ok, "a Confiner without a mode does not confine")
	_, ok = sandbox.ConfiningMode(struct{ fs.FileSystem }{})
	assert.False(t, ok, "a filesystem that is no Confiner does not confine")
}
