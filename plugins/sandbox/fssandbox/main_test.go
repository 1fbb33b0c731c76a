package fssandbox_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/cordon-dev/cordon/internal/statedir/statedirtest"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// TestMain fails the package run if any test leaves a goroutine behind (the swap racers, the
// kernel of the plugin tests), and keeps the staging registry in a private state directory.
func TestMain(m *testing.M) {
	cleanup := statedirtest.Private()
	kerneltest.VerifyTestMain(m, goleak.Cleanup(func(int) { cleanup() }))
}
