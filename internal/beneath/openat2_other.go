//go:build !linux

package beneath

import "golang.org/x/sys/unix"

// The resolutions of a confined open: openat2 is Linux's, so they mean nothing elsewhere.
const (
	NoLinks  uint64 = 0
	Confined uint64 = 0
)

// Open is Linux's; elsewhere ok is always false and the caller walks.
func Open(int, string, int, uint64) (fd int, ok bool, err error) { return -1, false, nil }

// Linkless is Linux's; elsewhere it is always false and the caller walks.
func Linkless(string, *unix.Stat_t) bool { return false }
