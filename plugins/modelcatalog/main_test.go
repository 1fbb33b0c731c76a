package modelcatalog_test

import (
	"testing"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }
