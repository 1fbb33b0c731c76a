package sandbox_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Carries the structured { name, code } identity consumers key on.
func TestUnavailableErrorIdentity(t *testing.T) {
	err := error(sandbox.NewUnavailableError(sandbox.ReadOnly, ""))
	var coded tools.Coded
	require.ErrorAs(t, fmt.Errorf("wrapped: %w", err), &coded)
	assert.Equal(t, "SANDBOX_UNAVAILABLE", coded.Code())
	named, ok := coded.(tools.Named)
	require.True(t, ok)
	assert.Equal(t, "SandboxUnavailableError", named.Name())
	assert.True(t, errors.Is(err, &sandbox.UnavailableError{}))
	assert.False(t, errors.Is(errors.New("x"), &sandbox.UnavailableError{}))
}

// Names the refused mode and the operator escape hatches in its message.
func TestUnavailableErrorMessage(t *testing.T) {
	err := sandbox.NewUnavailableError(sandbox.WorkspaceWrite, "")
	assert.Equal(t, `sandbox mode "workspace-write" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access.`, err.Error())
	assert.NotContains(t, err.Error(), "Runner failure")
}

// Carries the runner detail when the failure is discovered at execution time.
func TestUnavailableErrorDetail(t *testing.T) {
	err := sandbox.NewUnavailableError(sandbox.ReadOnly, "landlock-run: landlock is not enforced by this kernel")
	assert.Equal(t, "SANDBOX_UNAVAILABLE", err.Code())
	assert.Contains(t, err.Error(), "switch the consumer to danger-full-access. Runner failure: landlock-run: landlock is not enforced by this kernel")
}

func TestConfinedMode(t *testing.T) {
	assert.True(t, sandbox.ConfinedMode(sandbox.ReadOnly))
	assert.True(t, sandbox.ConfinedMode(sandbox.WorkspaceWrite))
	assert.False(t, sandbox.ConfinedMode(sandbox.DangerFullAccess))
	assert.False(t, sandbox.ConfinedMode(""))
}
