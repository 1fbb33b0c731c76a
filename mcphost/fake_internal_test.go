package mcphost

import "github.com/cordon-dev/cordon/plugins/tools/engine/enginetest"

var newFakeEngine = enginetest.New
