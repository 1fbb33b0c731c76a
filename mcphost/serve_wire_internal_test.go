package mcphost

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// tricky is text that JSON encoders escape differently (HTML characters, separators, controls,
// invalid UTF-8).
const tricky = "<a href=\"x\">&amp;</a>\u2028\u2029\t\n\x01 \xff \\ \""

// connectStdio serves eng over stdio pipes through the stdio transport and returns the client end.
func connectStdio(t *testing.T, eng engine.Engine) (io.WriteCloser, *bufio.Reader, chan error) {
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

// A batch's calls are the SDK's (the direct path takes single messages only): their results, encoded
// once by wireResults, go out in the batch's array with their ids.
func TestServeEncodesBatchResponses(t *testing.T) {
	inW, out, done := connectStdio(t, newFakeEngine())
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
