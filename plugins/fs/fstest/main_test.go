package fstest_test

import (
	"testing"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// TestMain fails the run if a check leaves a goroutine behind (the racers, a blocked FIFO read).
func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }
