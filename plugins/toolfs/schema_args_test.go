package toolfs_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Each tool's hand-written schema agrees with the struct its arguments decode into
// (tools.ArgsMismatches): under a filesystem that never confines (all four tools; the escalation
// arguments are read but not advertised) and under a confining one (every field advertised).
func TestSchemasAgreeWithArgs(t *testing.T) {
	plain := newImgEnv(t, imgOptions{}).rt.List()
	require.Len(t, plain, 4)
	for _, d := range plain {
		assert.Empty(t, tools.ArgsMismatches(d, "sandbox_permissions", "justification"), d.Name)
	}
	confined := newSandboxEnv(t, sandboxOptions{}).rt.List()
	require.Len(t, confined, 3)
	for _, d := range confined {
		assert.Empty(t, tools.ArgsMismatches(d), d.Name)
	}
}

// A schema that drifts from its struct is caught: a renamed property, a changed type, a
// property made required.
func TestSchemaArgsDriftIsCaught(t *testing.T) {
	read, ok := newEnv(t, envOptions{}).rt.Get("read")
	require.True(t, ok)
	for _, drift := range [][2]string{
		{`"offset":`, `"offest":`},
		{`"limit":{"type":"number"`, `"limit":{"type":"string"`},
		{`"required":["file_path"]`, `"required":["file_path","limit"]`},
	} {
		d := read
		d.Parameters = bytes.Replace(read.Parameters, []byte(drift[0]), []byte(drift[1]), 1)
		require.NotEqual(t, string(read.Parameters), string(d.Parameters), drift[0])
		assert.NotEmpty(t, tools.ArgsMismatches(d), drift[1])
	}
}
