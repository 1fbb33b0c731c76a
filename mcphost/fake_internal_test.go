package mcphost

import "github.com/cordon-dev/cordon/internal/engine/enginetest"

var newFakeEngine = enginetest.New
