package proc_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/proc"
)

// This process is alive; a child that exited and was reaped is not; a pid below 1 never names a
// process (kill would signal a process group).
func TestAlive(t *testing.T) {
	assert.True(t, proc.Alive(os.Getpid()))
	assert.True(t, proc.Alive(1), "init runs, whoever owns it")

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, cmd.Run())
	assert.False(t, proc.Alive(cmd.Process.Pid), "a reaped child")

	for _, pid := range []int{0, -1, -os.Getpid()} {
		assert.False(t, proc.Alive(pid), pid)
	}
}

// CPUTime grows while this process computes.
func TestCPUTimeGrows(t *testing.T) {
	before := proc.CPUTime()
	require.Positive(t, before)
	x := 0
	for start := proc.CPUTime(); proc.CPUTime()-start < 20*time.Millisecond; {
		x++
	}
	assert.Greater(t, proc.CPUTime()-before, 19*time.Millisecond, x)
}
