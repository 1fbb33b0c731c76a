//go:build !linux

package search

// openat2 is Linux's; elsewhere the caller walks one component at a time without following a
// symlink (walkNoFollow).
func openat2(int, string, int, bool) (int, bool, error) { return -1, false, nil }
