package jsonlines

import "github.com/cordon-dev/cordon/plugins/tools/engine/enginetest"

type fakeCall = enginetest.Call

var newFakeEngine = enginetest.New
