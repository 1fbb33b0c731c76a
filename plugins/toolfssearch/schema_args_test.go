package toolfssearch_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// glob's and grep's hand-written schemas agree with the structs their arguments decode into
// (tools.ArgsMismatches; the planted disagreements are in the tools package's tests).
func TestSchemasAgreeWithArgs(t *testing.T) {
	defs := newEnv(t, nil, nil).rt.List()
	require.Len(t, defs, 2)
	for _, d := range defs {
		assert.Empty(t, tools.ArgsMismatches(d), d.Name)
	}
}
