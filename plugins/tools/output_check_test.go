package tools_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Output schemas shaped like tool-fs's read, write and edit values.
var (
	readLikeSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
		`"path":{"type":"string"},"offset":{"type":"integer"},` +
		`"lines":{"type":"array","items":{"type":"object","additionalProperties":false,` +
		`"properties":{"number":{"type":"integer"},"text":{"type":"string"}},"required":["number","text"]}},` +
		`"totalLines":{"type":"integer"}},"required":["path","offset","lines","totalLines"]}`)
	writeLikeSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{` +
		`"path":{"type":"string"},"operation":{"type":"string","enum":["create","update"]},` +
		`"before":{"oneOf":[{"type":"string"},{"type":"null"}]},"after":{"type":"string"}},` +
		`"required":["path","operation","before","after"]}`)
)

type outLine struct {
	Number float64 `json:"number"`
	Text   string  `json:"text"`
}

type outRead struct {
	Path       string    `json:"path"`
	Offset     int       `json:"offset"`
	Lines      []outLine `json:"lines"`
	TotalLines any       `json:"totalLines"`
}

type outWrite struct {
	Path      string  `json:"path"`
	Operation string  `json:"operation"`
	Before    any     `json:"before"`
	After     *string `json:"after,omitempty"`
	Extra     string  `json:"extra,omitempty"`
}

// outWriteEmbedded and outWriteMarshaler encode exactly like outWrite, but the
// runtime snapshots them through encoding/json rather than by walking them.
type (
	outWriteEmbedded  struct{ outWrite }
	outWriteMarshaler struct{ v outWrite }
)

func (m outWriteMarshaler) MarshalJSON() ([]byte, error) { return json.Marshal(m.v) }

// TestOutputChecksOfGoValues pins INVALID_TOOL_OUTPUT for struct values, and
// requires the same messages whether the runtime walks the value directly
// (plain struct), walks a map, or takes the encoding/json round trip
// (embedded field and marshaler).
func TestOutputChecksOfGoValues(t *testing.T) {
	after := "new"
	cases := []struct {
		name   string
		schema json.RawMessage
		value  outWrite
		read   *outRead
		want   string // "" for a valid value
	}{
		{name: "valid write", schema: writeLikeSchema, value: outWrite{Path: "/f", Operation: "create", After: &after}},
		{name: "valid update", schema: writeLikeSchema, value: outWrite{Path: "/f", Operation: "update", Before: "old", After: &after}},
		{name: "operation outside the enum", schema: writeLikeSchema, value: outWrite{Path: "/f", Operation: "delete", After: &after},
			want: `"value.operation" must be one of ["create","update"]`},
		{name: "before matches no branch", schema: writeLikeSchema, value: outWrite{Path: "/f", Operation: "update", Before: 3, After: &after},
			want: `"value.before" must match exactly one oneOf branch (matched 0)`},
		{name: "missing and undeclared members", schema: writeLikeSchema, value: outWrite{Path: "/f", Operation: "create", Extra: "x"},
			want: `missing required property "value.after"; "value.extra" is not a declared property (additionalProperties: false)`},
		{name: "valid read with a negative line number", schema: readLikeSchema,
			read: &outRead{Path: "/f", Offset: 1, Lines: []outLine{{-1, "a"}}, TotalLines: 1}},
		{name: "fractional line number", schema: readLikeSchema,
			read: &outRead{Path: "/f", Offset: 1, Lines: []outLine{{1, "a"}, {2.5, "b"}}, TotalLines: 2},
			want: `"value.lines[1].number" must be an integer`},
		{name: "total lines of the wrong type", schema: readLikeSchema,
			read: &outRead{Path: "/f", Offset: 1, Lines: []outLine{}, TotalLines: "2"},
			want: `"value.totalLines" must be an integer`},
		{name: "nil lines", schema: readLikeSchema, read: &outRead{Path: "/f", Offset: 1, TotalLines: 0},
			want: `"value.lines" must be an array`},
		{name: "infinite line number", schema: readLikeSchema,
			read: &outRead{Path: "/f", Offset: 1, Lines: []outLine{{math.Inf(1), "a"}}, TotalLines: 1},
			want: `value is not lossless JSON`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var forms map[string]any
			if tc.read != nil {
				forms = map[string]any{"struct": *tc.read, "pointer": tc.read, "map": asMap(t, tc.read)}
			} else {
				forms = map[string]any{
					"struct": tc.value, "map": asMap(t, tc.value),
					"embedded": outWriteEmbedded{tc.value}, "marshaler": outWriteMarshaler{tc.value},
				}
			}
			for form, value := range forms {
				e := newEnv(t)
				d := tool("t", ok(value))
				d.OutputSchema = tc.schema
				e.load(t, d)
				res := e.exec("t", json.RawMessage(`{}`))
				if tc.want == "" {
					require.False(t, res.IsError, "%s: %s", form, res.Text())
					require.Equal(t, value, res.Value, form)
					continue
				}
				msg := `tool "t" returned invalid output: ` + tc.want
				require.Equal(t, &tools.ErrorInfo{Message: msg, Name: "ToolOutputError", Code: "INVALID_TOOL_OUTPUT"}, res.Error, form)
			}
		})
	}
}

// asMap is v as a generic JSON object, or nil when it cannot be one.
func asMap(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		return v // not lossless either way
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}
