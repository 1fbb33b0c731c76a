//go:build !linux

package history

import "os"

// datasync flushes f (fsync: fdatasync is Linux's).
func datasync(f *os.File) error { return f.Sync() }
