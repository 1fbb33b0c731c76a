package argcheck

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJSStringifyEscapes(t *testing.T) {
	v := &Value{kind: jArray, arr: []*Value{
		{kind: jString, str: "a\"b\\c\n\t\x01<&>\u2028é"},
		{kind: jNull}, {kind: jBool, b: true}, {kind: jNumber, num: 3},
	}}
	require.Equal(t, `["a\"b\\c\n\t\u0001<&>`+"\u2028"+`é",null,true,3]`, jsStringify(v))
}

func TestParseJSONKeepsOrderAndLastDuplicate(t *testing.T) {
	v, err := Parse([]byte(`{"b":1,"a":2,"b":3}`))
	require.NoError(t, err)
	require.Equal(t, []string{"b", "a"}, v.keys)
	require.Equal(t, float64(3), v.obj["b"].num)
	for _, bad := range []string{`{"x":-0}`, `1e400`, `{"a":1} {}`, ``, `{`, `[1,]`, `-0.0`} {
		_, err := Parse([]byte(bad))
		require.ErrorIs(t, err, ErrNotLossless, bad)
	}
	v, err = Parse([]byte(`1e-400`))
	require.NoError(t, err, "underflow to +0 is lossless in JavaScript too")
	require.Zero(t, v.num)
}

func FuzzValidate(f *testing.F) {
	node, err := Compile(json.RawMessage(`{"type":"object","properties":{
		"s":{"type":"string","enum":["a","b"]},"n":{"type":"number"},"i":{"type":"integer","const":3},
		"o":{"oneOf":[{"type":"array","items":{"type":"boolean"}},{"type":"null"}]},
		"c":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}},
		"required":["s"]}`), true)
	require.NoError(f, err)
	for _, seed := range []string{`{}`, `{"s":"a","n":1,"i":3,"o":[true],"c":{"x":"y"}}`, `[]`, `{"s":1,"o":{},"c":{"z":1}}`, `null`, `"x"`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		violations := checkValue(node, v, "", nil)
		if v.kind != jObject {
			require.Equal(t, []string{`"arguments" must be an object`}, violations)
		}
	})
}

// toAny converts a Value to the value encoding/json produces for any.
func toAny(v *Value) any {
	switch v.kind {
	case jBool:
		return v.b
	case jNumber:
		return v.num
	case jString:
		return v.str
	case jArray:
		out := make([]any, len(v.arr))
		for i, x := range v.arr {
			out[i] = toAny(x)
		}
		return out
	case jObject:
		out := make(map[string]any, len(v.obj))
		for k, x := range v.obj {
			out[k] = toAny(x)
		}
		return out
	}
	return nil
}

func hasNegativeZero(v any) bool {
	switch t := v.(type) {
	case float64:
		return t == 0 && math.Signbit(t)
	case []any:
		for _, x := range t {
			if hasNegativeZero(x) {
				return true
			}
		}
	case map[string]any:
		for _, x := range t {
			if hasNegativeZero(x) {
				return true
			}
		}
	}
	return false
}

// FuzzParseJSONAgreesWithEncodingJSON checks the token-built tree against encoding/json's own
// decoding: same accepted texts (minus the lossless gate) and same values.
func FuzzParseJSONAgreesWithEncodingJSON(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `{"a":[1,2.5,-3e2,true,false,null,"x"]}`, `"\u00e9\ud83d\ude00\n\"\\\/"`, `"\ud800"`, `"\ud800\u0041"`,
		` 1 `, `-0`, `1e400`, `0.0`, `01`, `1.`, `.5`, `{"a":1,"a":2}`, `[1,]`, `{"a" 1}`, "\"\x01\"", "\"\xff\"", `tru`, `nulls`,
		`"run\nrun\\u00e9\ud83d\ude00run"`, "\"\xffa\\n\xc3\"", "\"a\\nb\x1f\"", `"a\nb`, `"\u12"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		var want any
		stdErr := json.Unmarshal(data, &want)
		if err == nil {
			require.True(t, json.Valid(data), "accepted invalid JSON %q", data)
			require.NoError(t, stdErr)
			require.Equal(t, want, toAny(v))
			return
		}
		if json.Valid(data) {
			require.True(t, stdErr != nil || hasNegativeZero(want), "rejected lossless JSON %q", data)
		}
	})
}
