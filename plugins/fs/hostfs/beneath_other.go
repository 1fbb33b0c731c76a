//go:build !linux

package hostfs

// openRootFast has no single-call form outside Linux: the O_NOFOLLOW walk
// from "/" is used.
func openRootFast(string) (int, bool, error) { return -1, false, nil }

// openBeneathFast has no single-call form outside Linux: the O_NOFOLLOW walk
// is used.
func openBeneathFast(int, string) (int, bool, error) { return -1, false, nil }

// openat2File has no single-call form outside Linux: the O_NOFOLLOW walk is
// used.
func openat2File(int, string, int, uint64) (int, bool, error) { return -1, false, nil }

// beneathResolve is openat2's resolution of a confined lookup, which only Linux has.
const beneathResolve uint64 = 0
