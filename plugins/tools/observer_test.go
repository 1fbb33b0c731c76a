package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestResultObserverCannotFailOrChangeTheResult(t *testing.T) {
	e := newEnv(t)
	e.load(t, echo())
	_, err := tools.ResultEvent.On(e.root, func(_ context.Context, p tools.ResultArgs) error {
		r := p.Result()
		r.Content[0].Text = "tampered"
		return errors.New("observer failed")
	})
	require.NoError(t, err)
	_, err = tools.ResultEvent.On(e.root, func(context.Context, tools.ResultArgs) error { panic("observer panicked") })
	require.NoError(t, err)
	var last tools.ResultArgs
	_, err = tools.ResultEvent.On(e.root, func(_ context.Context, p tools.ResultArgs) error { last = p; return nil })
	require.NoError(t, err)

	res := e.exec("echo", json.RawMessage(`{"text":"hi"}`))
	require.Equal(t, tools.Result{Content: []tools.Content{tools.TextContent("hi")}, Value: "hi"}, res)
	require.Equal(t, "hi", last.Result().Text(), "each observer gets its own copy of the content")
	require.Equal(t, "echo", last.Exec.Name)
	require.Equal(t, 2, e.logs.FilterMessage("listener failed").Len(), "both failures are logged at Warn")
}

func TestResultObserverSeesEveryOutcomeOnce(t *testing.T) {
	e := newEnv(t)
	e.load(t, echo())
	var codes []string
	_, err := tools.ResultEvent.On(e.root, func(_ context.Context, p tools.ResultArgs) error {
		codes = append(codes, p.Result().Code())
		return nil
	})
	require.NoError(t, err)
	e.exec("echo", json.RawMessage(`{"text":"a"}`))
	e.exec("missing", json.RawMessage(`{}`))
	e.exec("echo", json.RawMessage(`{}`))
	e.exec("echo", nil)
	require.Equal(t, []string{"", "UNKNOWN_TOOL", "INVALID_ARGS", ""}, codes)
}
