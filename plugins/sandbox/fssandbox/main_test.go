package fssandbox_test

import (
	"testing"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// TestMain fails the package run if any test leaves a goroutine behind (the swap racers, the
// kernel of the plugin tests).
func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }
