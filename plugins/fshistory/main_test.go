package fshistory_test

import (
	"testing"

	"github.com/cordon-dev/cordon/internal/statedir/statedirtest"
)

// TestMain keeps what the providers and the store keep under the state directory private.
func TestMain(m *testing.M) { statedirtest.Run(m) }
