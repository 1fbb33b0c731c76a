package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// def is a tool over In with the schema params (its body is never run).
func def[In any](params string) tools.Definition {
	return tools.Tool[In, string]{Name: "t", Parameters: json.RawMessage(params)}.Definition()
}

type agreeing struct {
	Path   string          `json:"file_path"`
	Offset *float64        `json:"offset"`
	Count  *int            `json:"count"`
	All    *bool           `json:"all"`
	Tags   []string        `json:"tags"`
	Choice json.RawMessage `json:"choice"`
	Extra  json.RawMessage `json:"extra"`
	Either *string         `json:"either"`
	//lint:ignore U1000 an unexported field is no argument: the check skips it
	ignored string
	Skipped string `json:"-"`
}

func TestArgsMismatchesAgree(t *testing.T) {
	d := def[agreeing](`{"type":"object","properties":{` +
		`"file_path":{"type":"string"},"offset":{"type":"number"},"count":{"type":"integer"},` +
		`"all":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},` +
		`"choice":{"oneOf":[{"type":"string"},{"type":"number"}]},"either":{"oneOf":[{"type":"string"},{"type":"string","enum":["a"]}]}` +
		`},"required":["file_path"]}`)
	assert.Empty(t, tools.ArgsMismatches(d, "extra"))
	assert.Equal(t, []string{`tool "t": field Extra ("extra") is not a property of the schema`}, tools.ArgsMismatches(d))
	assert.Empty(t, tools.ArgsMismatches(def[json.RawMessage](`{"type":"object"}`)), "a non-struct In holds anything")
	assert.Empty(t, tools.ArgsMismatches(tools.Tool[struct{}, string]{Name: "t"}.Definition()), "nil parameters are the empty object")
}

type planted struct {
	Path   *string `json:"file_path"`
	Limit  float64 `json:"limit"`
	Flag   string  `json:"flag"`
	Mode   *int    `json:"mode"`
	Hidden string  `json:"hidden"`
	Go     *string
}

// Each planted disagreement is reported: a property without a field, a field without a
// property, a type the field cannot hold (also in one oneOf branch), a nilable required field and
// a non-nilable optional one, a required name that is not a property.
func TestArgsMismatchesPlanted(t *testing.T) {
	d := def[planted](`{"type":"object","properties":{` +
		`"file_path":{"type":"string"},"limit":{"type":"number"},"flag":{"type":"boolean"},` +
		`"mode":{"oneOf":[{"type":"integer"},{"type":"string"}]},"Go":{"type":"string"},"missing":{"type":"string"}` +
		`},"required":["file_path","gone"]}`)
	assert.Equal(t, []string{
		`tool "t": property "file_path" is required, but field Path (*string) is nilable`,
		`tool "t": property "flag" is {"type":"boolean"}, which field Flag (string) cannot hold`,
		`tool "t": property "flag" is optional, but field Flag (string) cannot tell it absent`,
		`tool "t": property "limit" is optional, but field Limit (float64) cannot tell it absent`,
		`tool "t": property "missing" has no field in tools_test.planted`,
		`tool "t": property "mode" is {"oneOf":[{"type":"integer"},{"type":"string"}]}, which field Mode (*int) cannot hold`,
		`tool "t": required "gone" is not a property`,
		`tool "t": field Hidden ("hidden") is not a property of the schema`,
	}, tools.ArgsMismatches(d))
	assert.Equal(t, []string{`tool "" has no body`}, tools.ArgsMismatches(tools.Definition{}))
}
