package jsonlines

import "github.com/cordon-dev/cordon/internal/engine/enginetest"

type fakeCall = enginetest.Call

var newFakeEngine = enginetest.New
