// Package proc answers questions about the processes of this host.
package proc

import (
	"errors"

	"golang.org/x/sys/unix"
)

// Alive reports whether a process with pid may still run: pid is positive and kill(pid, 0) does
// not fail with ESRCH (a process of another user, EPERM, counts as alive; so does a zombie not yet
// reaped).
func Alive(pid int) bool {
	return pid > 0 && !errors.Is(unix.Kill(pid, 0), unix.ESRCH)
}
