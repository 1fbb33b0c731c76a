package app_test

import (
	"os"
	"testing"

	"github.com/cordon-dev/cordon/mcphost/hosttest"
)

// TestMain keeps the default composition's attachment store (under the user's state directory) in a
// temporary directory for the whole run.
func TestMain(m *testing.M) { os.Exit(hosttest.RunInStateDir(m, "harness-app-state-")) }
