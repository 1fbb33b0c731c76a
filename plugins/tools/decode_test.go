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

// DecodeArgs decodes each field as json.Unmarshal decodes its member, errors included, whether the
// value is set from the parsed arguments (strings, bools, numbers, pointers, []string,
// json.RawMessage) or decoded from the member's text.
func TestDecodeArgsFieldsAsEncodingJSON(t *testing.T) {
	type shapes struct {
		S   string          `json:"s"`
		N   int             `json:"n"`
		I8  int8            `json:"i8"`
		F   *float64        `json:"f"`
		B   *bool           `json:"b"`
		L   []string        `json:"l"`
		Raw json.RawMessage `json:"raw"`
	}
	one, yes := 1.5, true
	var a shapes
	require.NoError(t, tools.DecodeArgs(json.RawMessage(`{"s":"é\n","n":-120,"i8":12,"f":1.5,"b":true,"l":["a","b"],"raw":{"x":[1]}}`), &a))
	require.Equal(t, shapes{S: "é\n", N: -120, I8: 12, F: &one, B: &yes, L: []string{"a", "b"}, Raw: json.RawMessage(`{"x":[1]}`)}, a)
	var n shapes
	require.NoError(t, tools.DecodeArgs(json.RawMessage(`{"s":null,"f":null,"l":null,"raw":null}`), &n))
	require.Equal(t, shapes{Raw: json.RawMessage(`null`)}, n)
	for args, msg := range map[string]string{
		`{"n":1.5}`:                  "json: cannot unmarshal number 1.5 into Go value of type int",
		`{"n":1e2}`:                  "json: cannot unmarshal number 1e2 into Go value of type int",
		`{"n":1e400}`:                "json: cannot unmarshal number 1e400 into Go value of type int",
		`{"i8":300}`:                 "json: cannot unmarshal number 300 into Go value of type int8",
		`{"s":1}`:                    "json: cannot unmarshal number into Go value of type string",
		`{"f":"1"}`:                  "json: cannot unmarshal string into Go value of type float64",
		`{"l":["a",1]}`:              "json: cannot unmarshal number into Go value of type string",
		`{"s":"a","s":true}`:         "json: cannot unmarshal bool into Go value of type string",
		`{"n":"x","s":2}`:            "json: cannot unmarshal number into Go value of type string",
		`["s"]`:                      "json: cannot unmarshal array into Go value of type map[string]json.RawMessage",
		`{"n":9007199254740993.5}`:   "json: cannot unmarshal number 9007199254740993.5 into Go value of type int",
		`{"n":18446744073709551616}`: "json: cannot unmarshal number 18446744073709551616 into Go value of type int",
	} {
		var s shapes
		require.EqualError(t, tools.DecodeArgs(json.RawMessage(args), &s), msg, args)
	}
}
