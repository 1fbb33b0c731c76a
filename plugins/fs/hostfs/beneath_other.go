//go:build !linux

package hostfs

// openRootFast has no single-call form outside Linux: the O_NOFOLLOW walk
// from "/" is used.
func openRootFast(string) (int, bool, error) { return -1, false, nil }

// openBeneathFast has no single-call form outside Linux: the O_NOFOLLOW walk
// is used.
func openBeneathFast(int, string) (int, bool, error) { return -1, false, nil }
