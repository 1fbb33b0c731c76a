package jsonlines

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// Every output line is valid UTF-8 JSON (RFC 8259), whatever bytes the input line carried: an id
// with invalid UTF-8 is echoed with U+FFFD in place of the bad bytes (as the rest of the line is
// decoded), never byte for byte. Before the fix the raw id went out as it came in.
func TestRunOutputIsValidUTF8(t *testing.T) {
	lines := []string{
		"{\"id\":\"\xff\xfe\",\"tool\":\"echo\"}",
		"{\"id\":{\"k\xc3\":[\"\xed\xa0\x80\",1.50,1e400]},\"tool\":\"nope\"}",
		"{\"id\":\"\xff\",\"tool\":\"\"}",
		"\x00\x01\xff\xfe garbage \x1b[31m",
		"{\"id\":12345678901234567890123,\"tool\":\"n\xffpe\"}",
	}
	var out bytes.Buffer
	require.NoError(t, newRunner(newFakeEngine(), nil).serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out))
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, got, len(lines), "one output line per input line")
	for i, line := range got {
		assert.True(t, utf8.ValidString(line), "line %d is not UTF-8: %q", i, line)
		assert.True(t, json.Valid([]byte(line)), "line %d is not JSON: %q", i, line)
	}
	assert.True(t, strings.HasPrefix(got[0], `{"id":"\ufffd\ufffd","tool":"echo","isError":false`) ||
		strings.HasPrefix(got[0], "{\"id\":\"\uFFFD\uFFFD\",\"tool\":\"echo\",\"isError\":false"), got[0])
	assert.Contains(t, got[1], `"id":{"k`+"\uFFFD"+`":["`+"\uFFFD\uFFFD\uFFFD"+`",1.50,1e400]}`, "numbers keep their spelling")
	assert.Contains(t, got[2], `"id":"`+"\uFFFD"+`"`)
	assert.Contains(t, got[4], `"id":12345678901234567890123,`, "a valid id is echoed as it came")
}

// A text block is {"type":"text","text"} even when its text is empty: the key is never dropped.
func TestRunEmptyTextBlockKeepsItsText(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, newRunner(newFakeEngine(), nil).serve(context.Background(), strings.NewReader(`{"id":1,"tool":"empty"}`+"\n"), &out))
	assert.Equal(t, `{"id":1,"tool":"empty","isError":false,"text":"\nx","content":[{"type":"text","text":""},{"type":"text","text":"x"}],"code":null,"errorName":null,"value":{},"meta":null}`+"\n", out.String())
}

// nanTool registers "nan", a plugin tool (no output schema) whose value JSON cannot encode.
var nanTool = toolstest.Tools("test-nan", tools.Tool[json.RawMessage, map[string]any]{
	Name: "nan", Description: "Returns NaN.",
	Execute: func(context.Context, json.RawMessage, *tools.Exec) (map[string]any, error) {
		return map[string]any{"x": math.NaN()}, nil
	},
	Render: func(json.RawMessage, map[string]any) []tools.Content { return []tools.Content{tools.TextContent("ok")} },
}.Definition())

// A plugin value JSON has no form for is refused when the line is encoded (INVALID_TOOL_OUTPUT):
// the call gets its error line, and the run goes on (one line per input line).
func TestRunUnencodableResult(t *testing.T) {
	var k *kernel.Kernel
	app := fx.New(fx.NopLogger, fx.Supply(zaptest.NewLogger(t)), kernelfx.Module, tools.Module, kernelfx.Plugin(nanTool),
		kernelfx.YAML([]byte("plugins:\n  - name: tools\n  - name: test-nan\n")), fx.Populate(&k))
	require.NoError(t, app.Start(context.Background()))
	defer func() { _ = app.Stop(context.Background()) }()
	eng, err := engine.New(k.Root())
	require.NoError(t, err)
	var out bytes.Buffer
	in := `{"id":1,"tool":"nan"}` + "\n" + `{"id":2,"tool":"nope"}` + "\n"
	require.NoError(t, newRunner(eng, nil).serve(context.Background(), strings.NewReader(in), &out))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 2, out.String())
	assert.Equal(t, `{"id":1,"tool":"nan","isError":true,"text":"Error: tool \"nan\" returned invalid output: value is not lossless JSON","content":[{"type":"text","text":"Error: tool \"nan\" returned invalid output: value is not lossless JSON"}],"code":"INVALID_TOOL_OUTPUT","errorName":"ToolOutputError","value":null,"meta":null}`, lines[0])
	assert.Contains(t, lines[1], `"id":2,"tool":"nope"`)
}
