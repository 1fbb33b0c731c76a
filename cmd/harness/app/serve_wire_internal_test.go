package app

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
		"coded failure":    toCallToolResult(outcome{IsError: true, Content: []block{{Type: "text", Text: "Error: x"}}, Code: "C", ErrorName: "N"}),
		"annotated text":   {Content: []mcp.Content{&mcp.TextContent{Text: "t", Meta: mcp.Meta{"k": 1}, Annotations: &mcp.Annotations{Priority: 0.5}}}},
		"request state":    {Content: []mcp.Content{&mcp.TextContent{Text: "t"}}, RequestState: "s"},
		"empty":            {Content: []mcp.Content{}},
		"uncoded failure":  toCallToolResult(outcome{IsError: true, Content: []block{{Type: "text", Text: "Error: y"}}}),
		"success no value": toCallToolResult(outcome{Content: []block{{Type: "text", Text: "ok"}}}),
	}
	for name, res := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := res.MarshalJSON()
			require.NoError(t, err)
			got, err := wireResult{res}.MarshalJSON()
			require.NoError(t, err)
			assert.Equal(t, jsonValue(t, want), jsonValue(t, got))
		})
	}
}

func TestSplicerReplacesOnlyRegisteredTokens(t *testing.T) {
	var out strings.Builder
	sp := newSplicer(&out)
	n, err := sp.Write([]byte("plain\n"))
	require.NoError(t, err)
	assert.Equal(t, 6, n)

	a, b := sp.register([]byte(`{"a":1}`), 0), sp.register([]byte(`[2]`), 0)
	stale := strings.Replace(string(a), ".1\"", ".99\"", 1) // same nonce, never registered
	msg := `[{"result":` + string(a) + `},{"result":` + string(b) + `},"` + stale[1:] + `,"cordon.splice.x"]` + "\n"
	out.Reset()
	n, err = sp.Write([]byte(msg))
	require.NoError(t, err)
	assert.Equal(t, len(msg), n, "Write reports the bytes it was given")
	assert.Equal(t, `[{"result":{"a":1}},{"result":[2]},"`+stale[1:]+`,"cordon.splice.x"]`+"\n", out.String())

	out.Reset()
	_, err = sp.Write([]byte(string(a) + "\n"))
	require.NoError(t, err)
	assert.Equal(t, string(a)+"\n", out.String(), "a token is spliced once")

	for _, at := range []int{4, 40} { // too little room before the result (copy), room enough (in place)
		buf := append(make([]byte, at, at+64), `{"r":1}`...)
		tok := sp.register(buf, at)
		out.Reset()
		_, err = sp.Write([]byte(`{"id":1,"result":` + string(tok) + "}\n"))
		require.NoError(t, err)
		assert.Equal(t, `{"id":1,"result":{"r":1}}`+"\n", out.String(), "room %d", at)
	}

	c := sp.register([]byte(`3`), 0)
	sp.discard()
	out.Reset()
	_, err = sp.Write([]byte(string(c)))
	require.NoError(t, err)
	assert.Equal(t, string(c), out.String(), "discarded results are not spliced")
}

// connectSpliced serves eng over stdio pipes through a splicer and returns the client end.
func connectSpliced(t *testing.T, eng engine) (io.WriteCloser, *bufio.Reader, chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	sp := newSplicer(outW)
	h := newMCPHost(eng, hostConfig{version: "test"})
	done := make(chan error, 1)
	go func() {
		done <- h.serveConn(context.Background(), &mcp.IOTransport{Reader: inR, Writer: nopWriteCloser{sp}}, sp)
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
	for range 4 { // concurrent calls share the splicer
		wg.Go(func() {
			got, err := cs.CallTool(context.Background(), call)
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
