package hostfs_test

import (
	"testing"

	"github.com/cordon-dev/cordon/internal/statedir/statedirtest"
)

// TestMain keeps the staging registry of every provider the tests make (and of their child
// processes) in a private state directory.
func TestMain(m *testing.M) { statedirtest.Run(m) }
