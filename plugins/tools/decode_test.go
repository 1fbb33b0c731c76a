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

// ValidateArgs is argcheck.Validate (every message: argcheck's TestValidateArgsMessages) with an
// unsupported schema reported as UNSUPPORTED_SCHEMA.
func TestValidateArgs(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`)
	got, err := tools.ValidateArgs(schema, []byte(`{"file_path":1}`))
	require.NoError(t, err)
	require.Equal(t, []string{`"file_path" must be a string`}, got)
	got, err = tools.ValidateArgs(schema, map[string]any{"file_path": "a"})
	require.NoError(t, err)
	require.Empty(t, got)
	got, err = tools.ValidateArgs(schema, []byte(`{`))
	require.NoError(t, err)
	require.Equal(t, []string{`"arguments" must be a lossless JSON value`}, got)

	_, err = tools.ValidateArgs(json.RawMessage(`{"type":"bogus"}`), []byte(`{}`))
	require.ErrorIs(t, err, tools.ErrUnsupportedSchema)
	require.EqualError(t, err, "unsupported JSON schema: schema.type must be one of object/array/string/number/integer/boolean/null")
	var te *tools.Error
	require.ErrorAs(t, err, &te)
	require.Equal(t, "JsonSchemaError", te.Name())
	require.Equal(t, []string{"schema.type must be one of object/array/string/number/integer/boolean/null"}, te.Violations())
}
