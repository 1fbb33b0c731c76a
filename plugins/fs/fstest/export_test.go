package fstest

import "time"

// SetBlockLimit shortens how long a FIFO read may block, for the tests of a provider that blocks.
func SetBlockLimit(d time.Duration) (restore func()) {
	old := blockLimit
	blockLimit = d
	return func() { blockLimit = old }
}
