package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// exposeYAML offers apply_patch instead of edit to GPT models and to the codex client, and hides
// apply_patch from everyone else (docs/tools.md "Exposure").
const exposeYAML = `plugins:
  - name: tools
    config:
      expose:
        - model: "gpt-*"
          hide: [edit]
        - client: codex
          tools: [read, apply_patch]
        - hide: [apply_patch]
`

func named(name string) tools.Definition {
	d := echoTool()
	d.Name = name
	return d.Definition()
}

func TestExposeRules(t *testing.T) {
	var k *kernel.Kernel
	app := fx.New(kernelfx.Module, tools.Module, kernelfx.YAML([]byte(exposeYAML)), fx.Supply(zaptest.NewLogger(t)), fx.Populate(&k), fx.NopLogger)
	require.NoError(t, app.Err())
	require.NoError(t, app.Start(context.Background()))
	t.Cleanup(func() { _ = app.Stop(context.Background()) })
	rt, ok := tools.Service.Get(k.Root())
	require.True(t, ok)
	for _, n := range []string{"read", "edit", "apply_patch"} {
		_, err := rt.Register(k.Root(), named(n))
		require.NoError(t, err)
	}
	names := func(h tools.Header) []string {
		var out []string
		for _, d := range rt.ListFor(h) {
			out = append(out, d.Name)
		}
		return out
	}
	require.Equal(t, []string{"read", "apply_patch"}, names(tools.Header{Model: "gpt-5.5"}))
	require.Equal(t, []string{"read", "apply_patch"}, names(tools.Header{Client: "codex", Model: "claude-x"}))
	require.Equal(t, []string{"read", "edit"}, names(tools.Header{Model: "claude-x"}))
	require.Equal(t, []string{"read", "edit"}, names(tools.Header{}), "no model, no client: the catch-all rule")
	require.Len(t, rt.List(), 3, "List is every registered tool")

	// A call to a tool the session does not see fails as an unknown tool.
	s := tools.NewSession("s")
	s.SetHeader(tools.Header{Model: "claude-x"})
	r := rt.Execute(context.Background(), tools.Call{Name: "apply_patch", Args: map[string]any{"text": "x"}, Session: s})
	require.True(t, r.IsError)
	require.Equal(t, "UNKNOWN_TOOL", r.Code())
	s.SetHeader(tools.Header{Model: "gpt-5.5"})
	r = rt.Execute(context.Background(), tools.Call{Name: "apply_patch", Args: map[string]any{"text": "x"}, Session: s})
	require.False(t, r.IsError, r.Text())
}

func TestExposeDefaultShowsEverything(t *testing.T) {
	e := newEnv(t)
	e.load(t, named("a"), named("b"))
	require.Len(t, e.rt.ListFor(tools.Header{Model: "gpt-5"}), len(e.rt.List()))
	require.True(t, e.rt.Exposed(tools.Header{}, "a"))
}

func TestExposeBadPattern(t *testing.T) {
	c := tools.Config{Expose: []tools.ExposeRule{{Model: "gpt-["}}}
	require.EqualError(t, c.Validate(), `tools: expose[0].model: bad pattern "gpt-["`)
}
