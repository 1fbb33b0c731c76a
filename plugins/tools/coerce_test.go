package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

type countArgs struct {
	Limit int  `json:"limit"`
	All   bool `json:"all"`
}

// Arguments as models send them: a string that is exactly a JSON number for a number parameter,
// and "true"/"false" for a boolean, reach the body as that value; anything else keeps the schema
// check's message (docs/tools.md "Arguments as models send them").
func TestStringsTakenAsNumbersAndBooleans(t *testing.T) {
	e := newEnv(t)
	e.load(t, tools.Tool[countArgs, countArgs]{
		Name:       "count",
		Parameters: json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"},"all":{"type":"boolean"}}}`),
		Execute:    func(_ context.Context, a countArgs, _ *tools.Exec) (countArgs, error) { return a, nil },
		Render: func(_ countArgs, v countArgs) []tools.Content {
			b, _ := json.Marshal(v)
			return []tools.Content{tools.TextContent(string(b))}
		},
	}.Definition())
	res := e.exec("count", map[string]any{"limit": "20", "all": "true"})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, `{"limit":20,"all":true}`, res.Text())
	for args, msg := range map[string]string{
		`{"limit":"twenty"}`: `Error: invalid arguments: "limit" must be an integer`,
		`{"limit":" 20"}`:    `Error: invalid arguments: "limit" must be an integer`,
		`{"limit":"2.5"}`:    `Error: invalid arguments: "limit" must be an integer`,
		`{"all":"yes"}`:      `Error: invalid arguments: "all" must be a boolean`,
	} {
		assert.Equal(t, msg, e.exec("count", json.RawMessage(args)).Text(), args)
	}
}
