// Package beneath decides whether a path lies beneath a root, two ways.
//
// By spelling alone (Within, Rel): an absolute, clean path is a directory or lies beneath it;
// "/ws/x" is beneath "/ws", "/ws2/x" is not, and nothing is resolved on disk (a caller that must
// follow links resolves first, or opens beneath a descriptor).
//
//	beneath.Within("/ws", "/ws/a/b") // true
//	beneath.Rel("/ws", "/ws/a/b")    // "a/b", true
//
// By the kernel (Open, Linkless): one call of Linux's openat2(2) as Cordon's confined opens make
// it, resolved beneath a directory descriptor (Confined) or through no link (NoLinks), retried a
// bounded number of times on EINTR and EAGAIN (a rename elsewhere on the system), and given up for
// good once the kernel lacks it or a seccomp filter refuses it. When Open reports ok false the
// caller walks one component at a time with O_NOFOLLOW instead; elsewhere than Linux it always
// does.
//
//	fd, ok, err := beneath.Open(rootfd, "a/b.txt", unix.O_RDONLY|unix.O_CLOEXEC, beneath.Confined)
//	if !ok {
//		// walk instead
//	}
package beneath

import "sync/atomic"

// unusable is set once openat2 turns out to be missing (ENOSYS, kernels before 5.6) or filtered
// (EPERM, seccomp): Open reports ok false from then on.
var unusable atomic.Bool

// retries bounds the tries of one Open that keeps failing EINTR or EAGAIN: no spin.
const retries = 8

// Disable makes Open report ok false from now on, as after ENOSYS, so the callers' walks run; it
// returns the function that restores the state before (for tests: t.Cleanup(beneath.Disable())).
func Disable() (restore func()) {
	prev := unusable.Swap(true)
	return func() { unusable.Store(prev) }
}
