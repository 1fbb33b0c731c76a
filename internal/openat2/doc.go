// Package openat2 is one call of Linux's openat2(2) as Cordon's confined opens make it: resolved
// beneath a directory descriptor (Beneath) or through no link (NoLinks), retried a bounded number
// of times on EINTR and EAGAIN (a rename elsewhere on the system), and given up for good once the
// kernel lacks it or a seccomp filter refuses it. When Open reports ok false the caller walks one
// component at a time with O_NOFOLLOW instead; elsewhere than Linux it always does.
//
//	fd, ok, err := openat2.Open(rootfd, "a/b.txt", unix.O_RDONLY|unix.O_CLOEXEC, openat2.Beneath)
//	if !ok {
//		// walk instead
//	}
package openat2

import "sync/atomic"

// unusable is set once openat2 turns out to be missing (ENOSYS, kernels before 5.6) or filtered
// (EPERM, seccomp): Open reports ok false from then on.
var unusable atomic.Bool

// retries bounds the tries of one Open that keeps failing EINTR or EAGAIN: no spin.
const retries = 8

// Disable makes Open report ok false from now on, as after ENOSYS, so the callers' walks run; it
// returns the function that restores the state before (for tests: t.Cleanup(openat2.Disable())).
func Disable() (restore func()) {
	prev := unusable.Swap(true)
	return func() { unusable.Store(prev) }
}
