package sandboxpolicy_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

// mounted loads the plugin with cfg (nil: defaults) into a fresh kernel and returns the service
// it provides and the plugin's fiber.
func mounted(t *testing.T, cfg any) (sandbox.Policy, *kernel.Context, *kernel.Fiber) {
	t.Helper()
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	f, err := k.Root().Load(sandboxpolicy.Plugin, cfg)
	require.NoError(t, err)
	kerneltest.RequireActive(t, f)
	p, ok := sandbox.PolicyService.Get(k.Root())
	require.True(t, ok)
	return p, k.Root(), f
}

// session returns a session whose header cwd is cwd ("" = none).
func session(id, cwd string) *tools.Session {
	s := tools.NewSession(id)
	s.SetHeader(tools.Header{Cwd: cwd})
	return s
}

// abs is Node's path.resolve of a path that does not exist on the test host.
func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	require.NoError(t, err)
	return a
}

// realDir returns a fresh, canonical temporary directory.
func realDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return d
}

// noPath fails the test when p exists (the tests use spellings such as /ws/sub that must not).
func noPath(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Skipf("%s exists on this host", p)
	}
}
