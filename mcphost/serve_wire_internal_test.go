package mcphost

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/engine"
	"github.com/cordon-dev/cordon/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// tricky is text that JSON encoders escape differently (HTML characters, separators, controls,
// invalid UTF-8) or that looks like a splice token.
const tricky = "<a href=\"x\">&amp;</a>\u2028\u2029\t\n\x01 \xff \\ \"cordon.splice.0000000000000000.1\""

// jsonValue decodes raw into a generic JSON value.
func jsonValue(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v), "%s", raw)
	return v
}

func TestWireResultEncodesTheSDKValue(t *testing.T) {
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
		"coded failure":    toCallToolResult(tools.Result{IsError: true, Content: []tools.Content{tools.TextContent("Error: x")}, Error: &tools.ErrorInfo{Code: "C", Name: "N"}}),
		"annotated text":   {Content: []mcp.Content{&mcp.TextContent{Text: "t", Meta: mcp.Meta{"k": 1}, Annotations: &mcp.Annotations{Priority: 0.5}}}},
		"request state":    {Content: []mcp.Content{&mcp.TextContent{Text: "t"}}, RequestState: "s"},
		"empty":            {Content: []mcp.Content{}},
		"uncoded failure":  toCallToolResult(tools.Result{IsError: true, Content: []tools.Content{tools.TextContent("Error: y")}}),
		"success no value": toCallToolResult(tools.Result{Content: []tools.Content{tools.TextContent("ok")}}),
	}
	for name, res := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := res.MarshalJSON()
			require.NoError(t, err)
			got, err := wireResult{CallToolResult: res}.MarshalJSON()
			require.NoError(t, err)
			assert.Equal(t, jsonValue(t, want), jsonValue(t, got))
		})
	}
}

// connectSpliced serves eng over stdio pipes through the splicing stdio transport and returns the
// client end.
func connectSpliced(t *testing.T, eng engine.Engine) (io.WriteCloser, *bufio.Reader, chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := newHost(eng, Config{Version: "test", Structured: true})
	done := make(chan error, 1)
	go func() {
		done <- h.serveConn(context.Background(), &mcpstdio.Transport{In: inR, Out: outW})
		_ = outW.Close()
	}()
	return inW, bufio.NewReader(outR), done
}

func TestServeSplicedResultsMatchTheSDK(t *testing.T) {
	args := map[string]any{"x": tricky + strings.Repeat("y", 100_000)}
	call := &mcp.CallToolParams{Name: "echo", Arguments: args}

	plain, plainDone := connectFake(t, newFakeEngine(), nil)
	want, err := plain.CallTool(context.Background(), call)
	require.NoError(t, err)
	require.NoError(t, plain.Close())
	require.NoError(t, <-plainDone)
	require.Len(t, want.StructuredContent.(map[string]any)["x"], len(args["x"].(string))+2, "\\xff arrives as U+FFFD")

	inW, out, done := connectSpliced(t, newFakeEngine())
	inR, outW := io.Pipe()
	go func() { _, _ = io.Copy(outW, out) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: inR, Writer: inW}, nil)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 4 { // concurrent calls share the transport's splices
		wg.Go(func() {
			got, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: call.Name, Arguments: call.Arguments})
			if assert.NoError(t, err) {
				assert.Equal(t, want, got)
				assert.Equal(t, want.StructuredContent, got.StructuredContent)
			}
		})
	}
	wg.Wait()
	bad, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fail"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_BOOM"}, bad.Meta["error"])
	require.NoError(t, cs.Close())
	assert.True(t, isClosedErr(<-done))
}

func TestServeSplicesIntoBatchResponses(t *testing.T) {
	inW, out, done := connectSpliced(t, newFakeEngine())
	send := func(s string) {
		_, err := io.WriteString(inW, s+"\n")
		require.NoError(t, err)
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	_, err := out.ReadString('\n')
	require.NoError(t, err)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x":"<1>"}}},` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":"2"}}}]`)
	line, err := out.ReadString('\n')
	require.NoError(t, err)
	var batch []struct {
		ID     int `json:"id"`
		Result struct {
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &batch), line)
	require.Len(t, batch, 2)
	for _, r := range batch {
		want := map[int]string{1: "<1>", 2: "2"}[r.ID]
		assert.Equal(t, map[string]any{"x": want}, r.Result.StructuredContent)
	}
	require.NoError(t, inW.Close())
	assert.True(t, isClosedErr(<-done))
}

// A result without content blocks is sent with "content":[], as the SDK's tools/call sends it (it
// replaces a nil Content before encoding; the direct path relies on the encoder for it).
func TestWireResultNilContentIsEmpty(t *testing.T) {
	b, err := wireResult{CallToolResult: &mcp.CallToolResult{}}.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"content":[]}`, string(b))
}

// A result too large for the official clients drops its structured value first and, when its blocks
// alone are too large, becomes an error that says so; nothing over the bound is written.
func TestWireResultStaysUnderTheClientLimit(t *testing.T) {
	big := strings.Repeat("x", maxWireResult)
	withValue := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}, StructuredContent: map[string]string{"after": big}}
	b, err := wireResult{CallToolResult: withValue}.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"content":[{"type":"text","text":"ok"}]}`, string(b))
	assert.NotNil(t, withValue.StructuredContent, "the result itself is not changed")

	huge := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}
	b, err = wireResult{CallToolResult: huge}.MarshalJSON()
	require.NoError(t, err)
	assert.Less(t, len(b), 1024)
	assert.Contains(t, string(b), `"isError":true`)
	assert.Contains(t, string(b), "more than the 10481664 bytes MCP clients accept")
}
