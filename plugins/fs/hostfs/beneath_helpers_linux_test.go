package hostfs

import (
	"testing"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// forceWalk makes the confined operations use the O_NOFOLLOW walk instead of
// openat2 for the rest of the test (the fallback of kernels without openat2).
func forceWalk(t *testing.T) {
	t.Helper()
	t.Cleanup(beneath.Disable())
}
