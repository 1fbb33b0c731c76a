package mcpstdio_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// tricky is text that JSON encoders escape differently (HTML characters, separators, controls,
// invalid UTF-8).
const tricky = "<a href=\"x\">&amp;</a>\u2028\u2029\t\n\x01 \xff \\ \""

// jsonValue decodes raw into a generic JSON value.
func jsonValue(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v), "%s", raw)
	return v
}

// Result encodes every result as the SDK's own MarshalJSON does, byte for byte (the one-pass text
// blocks and values, and the shapes it hands to the SDK).
func TestResultEncodesTheSDKBytes(t *testing.T) {
	type line struct {
		Number int    `json:"number"`
		Text   string `json:"text"`
	}
	cases := map[string]*mcp.CallToolResult{
		"text and structured": {Content: []mcp.Content{&mcp.TextContent{Text: tricky}},
			StructuredContent: struct {
				Path  string `json:"path"`
				Lines []line `json:"lines"`
			}{Path: "/p<>", Lines: []line{{1, tricky}, {2, ""}}}},
		"raw structured":   {Content: []mcp.Content{}, StructuredContent: json.RawMessage(`{"x": [1, 2]}`)},
		"image":            {Content: []mcp.Content{&mcp.ImageContent{Data: []byte{0, 1, 2}, MIMEType: "image/png"}, &mcp.TextContent{}}},
		"coded failure":    {IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: x"}}, Meta: mcp.Meta{"error": map[string]string{"name": "N", "code": "C"}}},
		"annotated text":   {Content: []mcp.Content{&mcp.TextContent{Text: "t", Meta: mcp.Meta{"k": 1}, Annotations: &mcp.Annotations{Priority: 0.5}}}},
		"request state":    {Content: []mcp.Content{&mcp.TextContent{Text: "t"}}, RequestState: "s"},
		"empty":            {Content: []mcp.Content{}},
		"uncoded failure":  {IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: y"}}},
		"success no value": {Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}},
	}
	for name, res := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := res.MarshalJSON()
			require.NoError(t, err)
			got, err := mcpstdio.Result{CallToolResult: res}.MarshalJSON()
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			assert.Equal(t, jsonValue(t, want), jsonValue(t, got))
		})
	}
}

// A result without content blocks is sent with "content":[], as the SDK's tools/call sends it (it
// replaces a nil Content before encoding; the direct path relies on the encoder for it).
func TestResultNilContentIsEmpty(t *testing.T) {
	b, err := mcpstdio.Result{CallToolResult: &mcp.CallToolResult{}}.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"content":[]}`, string(b))
}

// A result too large for the official clients drops its structured value first and, when its blocks
// alone are too large, becomes an error that says so; nothing over the bound is written.
func TestResultStaysUnderTheClientLimit(t *testing.T) {
	big := strings.Repeat("x", mcpstdio.MaxResult)
	withValue := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}, StructuredContent: map[string]string{"after": big}}
	b, err := mcpstdio.Result{CallToolResult: withValue}.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"content":[{"type":"text","text":"ok"}]}`, string(b))
	assert.NotNil(t, withValue.StructuredContent, "the result itself is not changed")

	huge := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}
	b, err = mcpstdio.Result{CallToolResult: huge}.MarshalJSON()
	require.NoError(t, err)
	assert.Less(t, len(b), 1024)
	assert.Contains(t, string(b), `"isError":true`)
	assert.Contains(t, string(b), "more than the 10481664 bytes MCP clients accept")
}
