package tools

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readLikeOutput is toolfs's read output schema.
const readLikeOutput = `{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"offset":{"type":"integer"},` +
	`"lines":{"type":"array","items":{"type":"object","additionalProperties":false,` +
	`"properties":{"number":{"type":"integer"},"text":{"type":"string"}},"required":["number","text"]}},` +
	`"totalLines":{"type":"integer"}},"required":["path","offset","lines","totalLines"]}`

// fastSchemas is the schema pool the soundness tests cross with every value:
// the fs tools' output schemas, the shapes of the snapshot test values, every
// scalar rule, and oneOf forms the fast check decides and ones it must not.
var fastSchemas = []string{
	`{}`,
	`{"description":"anything"}`,
	`{"type":"object"}`,
	`{"type":"object","additionalProperties":false}`,
	`{"type":"array"}`,
	`{"type":"array","items":{"type":"number"}}`,
	`{"type":"array","items":{"type":"string"}}`,
	`{"type":"array","items":{"type":"integer"}}`,
	`{"type":"array","items":{"type":"array","items":{}}}`,
	`{"type":"string"}`,
	`{"type":"string","enum":["x","key","a\ufffdb","\ufffd"]}`,
	`{"type":"string","const":"p"}`,
	`{"type":"number"}`,
	`{"type":"number","enum":[1,2.5,0.1,0.10000000149011612,1e21]}`,
	`{"type":"integer"}`,
	`{"type":"integer","const":1}`,
	`{"type":"integer","enum":[0,1,2,255,9007199254740992]}`,
	`{"type":"boolean"}`,
	`{"type":"boolean","const":true}`,
	`{"type":"null"}`,
	`{"type":"null","enum":[null]}`,
	`{"oneOf":[{"type":"string"},{"type":"null"}]}`,
	`{"oneOf":[{"type":"number"},{"type":"integer"}]}`,
	`{"oneOf":[{"type":"integer"},{"type":"string"}]}`,
	`{"oneOf":[{},{"type":"string"}]}`,
	`{"oneOf":[{"type":"object"},{"type":"array"}]}`,
	`{"oneOf":[{"oneOf":[{"type":"string"},{"type":"null"}]},{"type":"number"}]}`,
	`{"oneOf":[{"type":"array","items":{"type":"string"}},{"type":"array","items":{"type":"number"}}]}`,
	// The fs tools' output schemas.
	readLikeOutput,
	`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"operation":{"type":"string","enum":["create","update"]},` +
		`"before":{"oneOf":[{"type":"string"},{"type":"null"}]},"after":{"type":"string"}},"required":["path","operation","before","after"]}`,
	`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"before":{"type":"string"},"after":{"type":"string"}},` +
		`"required":["path","before","after"]}`,
	// snapLine, snapPlain and snapFuzzValue shapes, open, closed and with requirements.
	`{"type":"object","properties":{"number":{"type":"integer"},"text":{"type":"string"}},"required":["number","text"]}`,
	`{"type":"object","additionalProperties":false,"properties":{"number":{"type":"integer"},"text":{"type":"string"}}}`,
	`{"type":"object","properties":{"number":{"type":"number"},"text":{"type":"string","const":"x"}},"required":["text","text"]}`,
	`{"type":"object","properties":{"s":{"type":"string"},"p":{"oneOf":[{"type":"string"},{"type":"null"}]},"b":{"type":"boolean"},` +
		`"i8":{"type":"integer"},"u":{"type":"integer"},"f32":{"type":"number"},"f64":{"type":"number"},"arr":{"type":"array","items":{"type":"integer"}},` +
		`"lines":{"type":"array","items":{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}},` +
		`"nilSl":{"type":"null"},"M":{"type":"object"},"i":{"type":"object","additionalProperties":false,"properties":{"k":{"type":"string"}}},` +
		`"-":{"type":"string"},"ptr":{"oneOf":[{"type":"object"},{"type":"null"}]}},"required":["s","p","M","-"]}`,
	`{"type":"object","properties":{"path":{"type":"string"},"opt":{"oneOf":[{"type":"string"},{"type":"null"}]},"num":{"type":"integer"},` +
		`"u":{"type":"integer"},"f":{"type":"number"},"f32":{"type":"number"},"flag":{"type":"boolean"},` +
		`"lines":{"oneOf":[{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"number":{"type":"integer"},"text":{"type":"string"}}}},{"type":"null"}]},` +
		`"meta":{"oneOf":[{"type":"object"},{"type":"null"}]},"any":{},"tags":{"type":"object"}},"required":["path","opt","u","f","f32","flag","lines","meta","any"]}`,
	`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"opt":{},"num":{"type":"integer"},` +
		`"u":{"type":"integer"},"f":{"type":"integer"},"f32":{"type":"integer"},"flag":{"type":"boolean","const":false},` +
		`"lines":{},"meta":{},"any":{"type":"array"}},"required":["path"]}`,
	`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"b":{"type":"string"}},"required":["b"],"additionalProperties":false}`,
	// Arrays of structs (one field plan per array).
	`{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"number":{"type":"integer"}}}}`,
	`{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}}`,
	`{"type":"array","items":{"type":"object","properties":{"a":{},"number":{"oneOf":[{"type":"integer"},{"type":"null"}]}}}}`,
}

// optA has a required-by-schema member that omitempty may drop.
type optA struct {
	A int `json:"a,omitempty"`
}

func compiledFastSchemas(t testing.TB) []*schemaNode {
	t.Helper()
	nodes := make([]*schemaNode, len(fastSchemas))
	for i, raw := range fastSchemas {
		node, err := compileSchema(json.RawMessage(raw), false)
		require.NoError(t, err, raw)
		nodes[i] = node
	}
	return nodes
}

// requireFastSound requires fastConforms(node, v) to imply that the slow path
// (snapshotValue, then checkValue) accepts v, and reports what it returned.
func requireFastSound(t testing.TB, node *schemaNode, v any) bool {
	t.Helper()
	if !fastConforms(node, v) {
		return false
	}
	snap, err := snapshotValue(v)
	require.NoError(t, err, "fast check accepted a value the snapshot rejects: %#v", v)
	if node == nil {
		return true // fastConforms(nil, v): lossless JSON, nothing else to check
	}
	require.Empty(t, checkValue(node, snap, "value"), "fast check accepted an invalid value: %#v", v)
	return true
}

// fastValues are Go values of the argument and output tests beyond the
// snapshot cases: generic maps as ValidateArgs sees them, and tool-shaped
// structs.
func fastValues() []any {
	before := "old"
	return []any{
		map[string]any{"file_path": "a", "old_string": "x", "new_string": "y"},
		map[string]any{"file_path": 1, "old_string": "x", "new_string": "y"},
		map[string]any{"file_path": nil},
		map[string]any{"file_path": "a", "limit": math.Inf(1)},
		map[string]any{"file_path": "a", "limit": math.NaN()},
		map[string]any{"n": 1.5},
		map[string]any{"n": 0},
		map[string]any{"k": "c"},
		map[string]any{"v": true},
		map[string]any{"a": map[string]any{}},
		map[string]any{"o": map[string]any{"a": []any{"x", 2}, "z": 1}},
		map[string]any{"a": []any{"x"}, "b": "y"},
		map[string]any{"a": "x", "b": 1},
		map[string]any{"number": 1, "text": "x"},
		map[string]any{"number": 1.5, "text": "x"},
		map[string]any{"number": 1},
		[]any{}, []any{1, 2.5}, []any{"x", "y"}, []any{[]any{}, []any{1}},
		"x", "key", "p", "a\ufffdb", "a\xffb", 1, 0.1, float32(0.1), 2.5, 1e21, 255, uint64(1 << 53), true, false,
		[]optA{{1}, {0}}, []optA{{1}, {2}}, [2]optA{{1}, {2}}, []snapLine{{1, "x"}}, [1]snapLine{{1, "x"}}, []snapLine{{1, "\xff"}},
		editLikeValue{Path: "/f", Before: "a", After: "b"},
		struct {
			Path      string  `json:"path"`
			Operation string  `json:"operation"`
			Before    *string `json:"before"`
			After     string  `json:"after"`
		}{"/f", "update", &before, "new"},
		struct {
			Path      string  `json:"path"`
			Operation string  `json:"operation"`
			Before    *string `json:"before"`
			After     string  `json:"after"`
		}{"/f", "create", nil, "new"},
		struct {
			Path       string     `json:"path"`
			Offset     int        `json:"offset"`
			Lines      []snapLine `json:"lines"`
			TotalLines int        `json:"totalLines"`
		}{"/f", 1, []snapLine{{1, "a"}, {2, "b\xff"}}, 2},
		map[string]any{"path": "/f", "offset": 1, "lines": []any{map[string]any{"number": 1, "text": "a"}}, "totalLines": 1},
	}
}

// TestFastConformsIsSound crosses every schema of the pool with every
// snapshot and validation test value: whenever the fast check says valid, the
// exact path must agree.
func TestFastConformsIsSound(t *testing.T) {
	nodes := compiledFastSchemas(t)
	values := fastValues()
	for _, c := range snapshotCases() {
		values = append(values, c.value)
	}
	accepted := 0
	for _, node := range nodes {
		for _, v := range values {
			if requireFastSound(t, node, v) {
				accepted++
			}
		}
	}
	require.Positive(t, accepted)
}

// readValue is n lines shaped like toolfs's read value.
func readValue(n int) any {
	lines := make([]snapLine, n)
	for i := range lines {
		lines[i] = snapLine{Number: i + 1, Text: "line " + strconv.Itoa(i+1)}
	}
	return struct {
		Path       string     `json:"path"`
		Offset     int        `json:"offset"`
		Lines      []snapLine `json:"lines"`
		TotalLines int        `json:"totalLines"`
	}{"/f", 1, lines, n}
}

// TestFastConformsDecides pins where the fast check answers and where it
// leaves the verdict to the exact path, so the common tool values keep the
// fast path.
func TestFastConformsDecides(t *testing.T) {
	nodes := compiledFastSchemas(t)
	schema := func(prefix string) *schemaNode {
		for i, raw := range fastSchemas {
			if strings.HasPrefix(raw, prefix) {
				return nodes[i]
			}
		}
		t.Fatalf("no schema %s", prefix)
		return nil
	}
	read := schema(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"offset"`)
	write := schema(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"operation"`)
	edit := schema(`{"type":"object","additionalProperties":false,"properties":{"path":{"type":"string"},"before"`)
	values := fastValues() // ends with edit, write (update, create), read (struct, map) values
	cases := []struct {
		name string
		node *schemaNode
		v    any
		want bool
	}{
		{"read value", read, readValue(3), true},
		{"read value, invalid UTF-8 line", read, values[len(values)-2], false},
		{"read value as a map", read, values[len(values)-1], true},
		{"write value with before", write, values[len(values)-4], true},
		{"write value without before", write, values[len(values)-3], true},
		{"edit value", edit, values[len(values)-5], true},
		{"edit value against the read schema", read, values[len(values)-5], false},
		{"any plain value", nil, map[string]any{"a": []any{1, "x", nil, true}}, true},
		{"nil against null", schema(`{"type":"null"}`), nil, true},
		{"nil against unconstrained", nil, nil, true},
		{"float32 in an enum by its 32-bit form", schema(`{"type":"number","enum"`), float32(0.1), true},
		{"integer const", schema(`{"type":"integer","const":1}`), uint8(1), true},
		{"integer const mismatch", schema(`{"type":"integer","const":1}`), 2, false},
		{"fraction is no integer", schema(`{"type":"integer"}`), 1.5, false},
		{"oneOf with two matching branches", schema(`{"oneOf":[{"type":"number"},{"type":"integer"}]}`), 1, false},
		{"oneOf, one branch by kind", schema(`{"oneOf":[{"type":"number"},{"type":"integer"}]}`), 1.5, false},
		{"oneOf decided by kind", schema(`{"oneOf":[{"type":"integer"},{"type":"string"}]}`), "x", true},
		{"nested oneOf that matches", schema(`{"oneOf":[{"oneOf"`), "x", true},
		{"nested oneOf that cannot be ruled out", schema(`{"oneOf":[{"oneOf"`), 1, false},
		{"invalid UTF-8 string", nil, "a\xffb", false},
		{"invalid UTF-8 key", nil, map[string]int{"\xff": 1}, false},
		{"NaN", nil, math.NaN(), false},
		{"negative zero", nil, math.Copysign(0, -1), false},
		{"marshaler", nil, marshalFails{}, false},
		{"byte slice", nil, []byte("x"), false},
		{"json.Number", nil, json.Number("1"), false},
		{"missing required member", schema(`{"type":"object","properties":{"number":{"type":"integer"},"text":{"type":"string"}},"required"`),
			map[string]any{"number": 1}, false},
		{"duplicate required names", schema(`{"type":"object","properties":{"number":{"type":"number"}`), snapLine{1, "x"}, true},
		{"undeclared member of a closed object", schema(`{"type":"object","additionalProperties":false}`), map[string]any{"a": 1}, false},
		{"structs with an undeclared member", schema(`{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"number"`),
			[]snapLine{{1, "x"}}, false},
		{"structs with the undeclared member left out", schema(`{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"number"`),
			[]optA{}, true},
		{"structs missing a required member", schema(`{"type":"array","items":{"type":"object","properties":{"a"`), []optA{{1}, {0}}, false},
		{"structs with every required member", schema(`{"type":"array","items":{"type":"object","properties":{"a"`), [2]optA{{1}, {2}}, true},
		{"structs against open items", schema(`{"type":"array","items":{"type":"object","properties":{"a":{},`), []snapLine{{1, "x"}}, true},
		{"structs with an invalid UTF-8 member", schema(`{"type":"array","items":{"type":"object","properties":{"a":{},`), []snapLine{{1, "\xff"}}, false},
		{"structs against string items", schema(`{"type":"array","items":{"type":"string"}}`), []snapLine{{1, "x"}}, false},
		{"empty closed object", schema(`{"type":"object","additionalProperties":false}`), struct{}{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, requireFastSound(t, tc.node, tc.v))
		})
	}
}

// FuzzFastConformsIsSound fills the snapshot fuzz shape from the fuzzer's
// strings and numbers and checks the fast verdict against every pooled schema
// and against schemas built from the same inputs (enums and consts that the
// value may or may not hit).
func FuzzFastConformsIsSound(f *testing.F) {
	f.Add("/f", "a\nb", int64(-3), 1.5, float32(0.1), uint8(2))
	f.Add("\xff", "\"\\\u2028", int64(0), math.Copysign(0, -1), float32(1e30), uint8(0))
	f.Add("k", "\xed\xa0\x80<>&", int64(math.MaxInt64), math.Inf(-1), float32(math.NaN()), uint8(255))
	f.Add("", "", int64(1<<53+1), 5e-324, float32(1e-45), uint8(7))
	f.Add("x", "x", int64(1), 1.0, float32(1), uint8(12))
	nodes := compiledFastSchemas(f)
	f.Fuzz(func(t *testing.T, s, k string, n int64, fl float64, f32 float32, shape uint8) {
		v := fuzzSnapValue(s, k, n, fl, f32, shape)
		values := []any{v, &v, v.Any, v.Lines, v.Meta, []any{s, k, fl, f32, n}, s, n, fl, f32}
		for _, node := range append(nodes, fuzzSchemas(s, k, n, fl)...) {
			for _, value := range values {
				requireFastSound(t, node, value)
			}
		}
	})
}

// fuzzSchemas are schemas whose enums and consts come from the fuzz inputs;
// the ones that do not compile (non-finite numbers) are left out.
func fuzzSchemas(s, k string, n int64, fl float64) []*schemaNode {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	raws := []string{
		`{"type":"string","enum":[` + js(s) + `,` + js(k) + `]}`,
		`{"type":"string","const":` + js(k) + `}`,
		`{"type":"number","enum":[` + js(fl) + `,` + js(n) + `]}`,
		`{"type":"integer","const":` + js(n) + `}`,
		`{"type":"object","properties":{"path":{"type":"string","const":` + js(s) + `},"num":{"type":"integer","enum":[` + js(n) + `]},` +
			`"f":{"type":"number","const":` + js(fl) + `},"any":{"oneOf":[{"type":"object"},{"type":"array","items":{"type":"number","enum":[` + js(fl) + `]}}]}}}`,
		`{"type":"object","additionalProperties":false,"properties":{` + js(s) + `:{},` + js(k) + `:{"type":"array"}},"required":[` + js(k) + `]}`,
	}
	var out []*schemaNode
	for _, raw := range raws {
		if node, err := compileSchema(json.RawMessage(raw), false); err == nil {
			out = append(out, node)
		}
	}
	return out
}

// fuzzSnapValue is the snapshot fuzz target's value.
func fuzzSnapValue(s, k string, n int64, fl float64, f32 float32, shape uint8) snapFuzzValue {
	v := snapFuzzValue{Path: s, Num: n, U: uint32(n), F: fl, F32: f32, Flag: shape&1 == 1}
	if shape&2 != 0 {
		v.Opt = &k
	}
	for i := range int(shape % 5) {
		v.Lines = append(v.Lines, snapLine{Number: int(n) + i, Text: s + k})
	}
	if shape&4 != 0 {
		v.Meta = map[string]any{k: fl, s: []any{n, k}, k + s: nil}
	}
	switch shape % 3 {
	case 0:
		v.Any = map[string]any{s: map[string]string{k: s}}
	case 1:
		v.Any = []float32{f32}
	default:
		v.Any = &v.Lines
	}
	if shape&8 != 0 {
		v.Tags = map[string]*string{k: nil, s: &s}
	}
	return v
}
