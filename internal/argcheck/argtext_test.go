package argcheck_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

// Arguments holding a string or key that is not valid UTF-8 text are refused
// by Snapshot: decoding them (encoding/json, Parse, a client's decoder) would
// store U+FFFD instead of what was sent. Raw JSON text and Go values alike.
func TestSnapshotRefusesTextThatIsNotUTF8(t *testing.T) {
	const prefix = "tool execution arguments must be valid UTF-8 text: "
	type nested struct {
		Name  string   `json:"name"`
		Lines []string `json:"lines"`
	}
	cases := map[string]struct {
		args any
		msg  string
	}{
		"invalid byte":          {json.RawMessage("{\"content\":\"a\xffb\"}"), `"content" holds invalid UTF-8 bytes`},
		"truncated sequence":    {json.RawMessage("{\"file_path\":\"x\",\"content\":\"\xe2\x82\"}"), `"content" holds invalid UTF-8 bytes`},
		"encoded surrogate":     {json.RawMessage("{\"content\":\"\xed\xa0\x80\"}"), `"content" holds invalid UTF-8 bytes`},
		"lone high surrogate":   {json.RawMessage(`{"content":"a\ud800b"}`), `"content" holds the unpaired surrogate \ud800`},
		"lone low surrogate":    {json.RawMessage(`{"content":"\uDC01"}`), `"content" holds the unpaired surrogate \uDC01`},
		"high then non-low":     {json.RawMessage(`{"content":"\ud800\u0041"}`), `"content" holds the unpaired surrogate \ud800`},
		"reversed pair":         {json.RawMessage(`{"content":"\udc00\ud800"}`), `"content" holds the unpaired surrogate \udc00`},
		"high at the very end":  {json.RawMessage(`{"new_string":"x\ud83d"}`), `"new_string" holds the unpaired surrogate \ud83d`},
		"nested in an array":    {json.RawMessage(`{"a":[1,{"b":["ok","\ud800"]}]}`), `"a[1].b[1]" holds the unpaired surrogate \ud800`},
		"an object key":         {json.RawMessage("{\"ok\":1,\"k\xff\":2}"), `a key of "arguments" holds invalid UTF-8 bytes`},
		"a nested key":          {json.RawMessage(`{"o":{"\udfff":1}}`), `a key of "o" holds the unpaired surrogate \udfff`},
		"a root string":         {json.RawMessage(`"\ud800"`), `"arguments" holds the unpaired surrogate \ud800`},
		"go map value":          {map[string]any{"file_path": "f", "content": "a\xffb"}, `"content" holds invalid UTF-8 bytes`},
		"go map key":            {map[string]any{"k\xff": 1}, `a key of "arguments" holds invalid UTF-8 bytes`},
		"go nested slice":       {map[string]any{"x": []any{"ok", map[string]string{"y": "\xc0"}}}, `"x[1].y" holds invalid UTF-8 bytes`},
		"go struct field":       {&nested{Name: "n", Lines: []string{"ok", "\xff"}}, `"lines[1]" holds invalid UTF-8 bytes`},
		"go raw message inside": {map[string]any{"v": json.RawMessage("\"\xff\"")}, `"v" holds invalid UTF-8 bytes`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := argcheck.Snapshot(tc.args)
			var te *argcheck.TextError
			require.ErrorAs(t, err, &te)
			require.EqualError(t, err, prefix+tc.msg)
		})
	}
}
