package hostfs

import "testing"

// forceWalk makes the confined operations use the O_NOFOLLOW walk instead of
// openat2 for the rest of the test (the fallback of kernels without openat2).
func forceWalk(t *testing.T) {
	t.Helper()
	prev := openat2Unusable.Load()
	openat2Unusable.Store(true)
	t.Cleanup(func() { openat2Unusable.Store(prev) })
}
