package argcheck_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

// The parameter schemas of the fs tools (docs/tool-fs.md), with the escalation
// fields a confining provider adds.
const editSchema = `{"type":"object","properties":{
 "file_path":{"type":"string","description":"Path to edit, resolved by the filesystem backend."},
 "old_string":{"type":"string"},
 "new_string":{"type":"string"},
 "replace_all":{"type":"boolean"},
 "sandbox_permissions":{"type":"string","enum":["workspace-write","danger-full-access"]}},
 "required":["file_path","old_string","new_string"]}`

const readSchema = `{"type":"object","properties":{
 "file_path":{"type":"string"},"offset":{"type":"number"},"limit":{"type":"number"}},
 "required":["file_path"]}`

func TestValidateArgsMessages(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		args   any
		want   []string
	}{
		{"valid", editSchema, `{"file_path":"a","old_string":"x","new_string":"y"}`, nil},
		{"open root ignores unknown keys", editSchema, `{"file_path":"a","old_string":"x","new_string":"y","replaceAll":true}`, nil},
		{"missing required", editSchema, `{"file_path":"a"}`, []string{`missing required property "old_string"`, `missing required property "new_string"`}},
		{"must be a string", editSchema, `{"file_path":1,"old_string":"x","new_string":"y"}`, []string{`"file_path" must be a string`}},
		{"null is present, not missing", editSchema, `{"file_path":null,"old_string":"x","new_string":"y"}`, []string{`"file_path" must be a string`}},
		{"must be a boolean", editSchema, `{"file_path":"a","old_string":"x","new_string":"y","replace_all":"yes"}`, []string{`"replace_all" must be a boolean`}},
		{"enum", editSchema, `{"file_path":"a","old_string":"x","new_string":"y","sandbox_permissions":"root"}`, []string{`"sandbox_permissions" must be one of ["workspace-write","danger-full-access"]`}},
		{"must be a number", readSchema, `{"file_path":"a","offset":"2"}`, []string{`"offset" must be a number`}},
		{"fraction passes number", readSchema, `{"file_path":"a","offset":1.5}`, nil},
		{"finite number", readSchema, map[string]any{"file_path": "a", "limit": math.Inf(1)}, []string{`"limit" must be a finite JSON number`}},
		{"NaN", readSchema, map[string]any{"file_path": "a", "limit": math.NaN()}, []string{`"limit" must be a finite JSON number`}},
		{"root array", readSchema, `[]`, []string{`"arguments" must be an object`}},
		{"root null", readSchema, `null`, []string{`"arguments" must be an object`}},
		{"root string", readSchema, `"x"`, []string{`"arguments" must be an object`}},
		{"required before type errors", editSchema, `{"file_path":1}`, []string{`missing required property "old_string"`, `missing required property "new_string"`, `"file_path" must be a string`}},
		{"integer", `{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":1.5}`, []string{`"n" must be an integer`}},
		{"null type", `{"type":"object","properties":{"n":{"type":"null"}}}`, `{"n":0}`, []string{`"n" must be null`}},
		{"const", `{"type":"object","properties":{"k":{"type":"string","const":"a\"b"}}}`, `{"k":"c"}`, []string{`"k" must be "a\"b"`}},
		{"number enum formats like JavaScript", `{"type":"object","properties":{"n":{"type":"number","enum":[1,2.5,1e21,0.000001]}}}`, `{"n":3}`, []string{`"n" must be one of [1,2.5,1e+21,0.000001]`}},
		{"nested paths", `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"b":{"type":"string"}},"required":["b"],"additionalProperties":false}}}`,
			`{"o":{"a":["x",2],"z":1}}`, []string{`missing required property "o.b"`, `"o.a[1]" must be a string`, `"o.z" is not a declared property (additionalProperties: false)`}},
		{"closed root", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, `{"a":"x","b":1}`, []string{`"b" is not a declared property (additionalProperties: false)`}},
		{"oneOf", `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"number"}]}}}`, `{"v":true}`, []string{`"v" must match exactly one oneOf branch (matched 0)`}},
		{"must be an array", `{"type":"object","properties":{"a":{"type":"array"}}}`, `{"a":{}}`, []string{`"a" must be an array`}},
		{"must be an object", `{"type":"object","properties":{"o":{"type":"object"}}}`, `{"o":[]}`, []string{`"o" must be an object`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if s, isString := args.(string); isString {
				args = json.RawMessage(s)
			}
			got, err := argcheck.Validate(json.RawMessage(tc.schema), args)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// TestCheckOfConformingArgumentsAllocatesNothing: the names of values in the messages are made
// only for a violation, so checking flat arguments that conform (every call's case) allocates
// nothing.
func TestCheckOfConformingArgumentsAllocatesNothing(t *testing.T) {
	s, err := argcheck.Compile(json.RawMessage(`{"type":"object","required":["file_path"],"properties":{
		"file_path":{"type":"string"},"offset":{"type":"number"},"mode":{"type":"string","enum":["a","b"]},
		"all":{"type":"boolean"}}}`), true)
	require.NoError(t, err)
	v, err := argcheck.Parse([]byte(`{"file_path":"/f","offset":3,"mode":"b","all":true}`))
	require.NoError(t, err)
	require.Empty(t, s.Check(v))
	require.Zero(t, testing.AllocsPerRun(100, func() { s.Check(v) }))
	bad, err := argcheck.Parse([]byte(`{"file_path":1,"mode":"c"}`))
	require.NoError(t, err)
	require.Equal(t, []string{`"file_path" must be a string`, `"mode" must be one of ["a","b"]`}, s.Check(bad))
}
