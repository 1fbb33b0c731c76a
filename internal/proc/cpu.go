package proc

import (
	"time"

	"golang.org/x/sys/unix"
)

// CPUTime is the CPU time this process has used so far (user and system), zero when the system
// does not say. Benchmarks divide its growth by their operations: on a shared machine, CPU per
// operation is the figure that shows the code, where wall time shows the load.
func CPUTime() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
