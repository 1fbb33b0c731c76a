package local

import (
	"testing"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// TestMain fails the run if any goroutine (limiter waiter, batch worker,
// kernel listener) outlives the tests.
func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }
