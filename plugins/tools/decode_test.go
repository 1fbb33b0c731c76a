package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

type editArgs struct {
	FilePath   string `json:"file_path"`
	ReplaceAll bool   `json:"replace_all"`
	Skipped    string `json:"-"`
	Plain      string
	hidden     string //nolint:unused // proves unexported fields are skipped
}

func TestDecodeArgsMatchesKeysExactly(t *testing.T) {
	var a editArgs
	err := tools.DecodeArgs(json.RawMessage(`{"file_path":"a","File_Path":"b","replaceAll":true,"Skipped":"s","Plain":"p","hidden":"h"}`), &a)
	require.NoError(t, err)
	require.Empty(t, a.hidden)
	require.Equal(t, editArgs{FilePath: "a", Plain: "p"}, a, "case variants and camelCase keys are ignored")

	var dup editArgs
	require.NoError(t, tools.DecodeArgs(json.RawMessage(`{"file_path":"a","file_path":"b"}`), &dup))
	require.Equal(t, "b", dup.FilePath, "the last duplicate wins, as in JSON.parse")

	var m map[string]any
	require.NoError(t, tools.DecodeArgs(json.RawMessage(`{"x":1}`), &m))
	require.Equal(t, map[string]any{"x": float64(1)}, m)

	require.Error(t, tools.DecodeArgs(json.RawMessage(`{}`), a))
	require.Error(t, tools.DecodeArgs(json.RawMessage(`{"file_path":1}`), &a))
}
