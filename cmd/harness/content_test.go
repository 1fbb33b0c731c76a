package main_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const notText = `Error: tool execution arguments must be valid UTF-8 text: `

// invalidContent are write/edit argument texts whose content or new_string is
// not valid UTF-8 text, raw bytes or escaped, with the refusal each earns; a
// decoder would store U+FFFD in their place.
var invalidContent = []struct {
	tool, name, args, msg string
}{
	{"write", "a raw invalid byte", "{\"file_path\":\"w.txt\",\"content\":\"a\xffb\\n\"}", `"content" holds invalid UTF-8 bytes`},
	{"write", "an encoded surrogate", "{\"file_path\":\"w.txt\",\"content\":\"\xed\xa0\x80\"}", `"content" holds invalid UTF-8 bytes`},
	{"write", "an escaped lone surrogate", `{"file_path":"w.txt","content":"x\ud800y"}`, `"content" holds the unpaired surrogate \ud800`},
	{"edit", "an invalid new_string", "{\"file_path\":\"e.txt\",\"old_string\":\"keep\",\"new_string\":\"k\xc3\"}", `"new_string" holds invalid UTF-8 bytes`},
	{"edit", "an escaped lone surrogate", `{"file_path":"e.txt","old_string":"keep","new_string":"\udc00"}`, `"new_string" holds the unpaired surrogate \udc00`},
}

// harness run: content that is not valid UTF-8 text is refused, nothing is
// written; a surrogate pair escape is stored as the character's bytes.
func TestRunRefusesContentThatIsNotUTF8Text(t *testing.T) {
	dir := realTemp(t)
	edited := filepath.Join(dir, "e.txt")
	writeFile(t, edited, "keep\n")
	p := startRun(t, "--cwd", dir)
	r := p.call(`{"id":0,"tool":"read","args":{"file_path":"e.txt"}}`)
	require.False(t, r.IsError, r.Text)
	for i, tc := range invalidContent {
		r := p.call(`{"id":` + strconv.Itoa(i+1) + `,"tool":"` + tc.tool + `","args":` + tc.args + `}`)
		assert.True(t, r.IsError, tc.name)
		assert.Equal(t, notText+tc.msg, r.Text, tc.name)
		assert.Nil(t, r.Code, "a plain error")
	}
	assert.NoFileExists(t, filepath.Join(dir, "w.txt"))
	assert.Equal(t, "keep\n", readFile(t, edited))

	r = p.call(`{"id":9,"tool":"write","args":{"file_path":"w.txt","content":"\ud83d\ude00 \ufffd"}}`)
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, "\U0001F600 \uFFFD", readFile(t, filepath.Join(dir, "w.txt")), "valid text is stored as sent")
}

// harness serve: the same arguments sent raw by the MCP Go SDK client (it
// passes json.RawMessage arguments through byte for byte) are refused.
func TestServeRefusesContentThatIsNotUTF8Text(t *testing.T) {
	dir := realTemp(t)
	edited := filepath.Join(dir, "e.txt")
	writeFile(t, edited, "keep\n")
	cs, _ := serve(t, "--cwd", dir)
	rawCall := func(tool, args string) *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		require.NoError(t, err)
		return res
	}
	require.False(t, rawCall("read", `{"file_path":"e.txt"}`).IsError)
	for _, tc := range invalidContent {
		res := rawCall(tc.tool, tc.args)
		assert.True(t, res.IsError, tc.name)
		assert.Equal(t, notText+tc.msg, text(res), tc.name)
	}
	assert.NoFileExists(t, filepath.Join(dir, "w.txt"))
	assert.Equal(t, "keep\n", readFile(t, edited))

	res := rawCall("write", `{"file_path":"w.txt","content":"\ud83d\ude00 \ufffd"}`)
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "\U0001F600 \uFFFD", readFile(t, filepath.Join(dir, "w.txt")))
}
