package sandboxtest

import (
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// Exchanger exchanges the existing entries a and b atomically (RENAME_EXCHANGE), in a loop, until
// the returned stop is called; stop reports how many exchanges were made. A directory exchanged
// with a symlink out of the workspace is the race a confined open must hold against.
func Exchanger(tb testing.TB, a, b string) (stop func() int) {
	tb.Helper()
	done := make(chan struct{})
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				tb.Errorf("exchange: %v", err)
				return
			}
			swaps.Add(1)
		}
	}()
	return func() int {
		close(done)
		wg.Wait()
		return int(swaps.Load())
	}
}
