//go:build !unix

package fstest

// mkfifo reports that FIFOs are not made on this platform.
func mkfifo(*checker, string) bool { return false }

func unblockFIFO(string) {}
