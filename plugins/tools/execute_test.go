package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestSuccessEnvelope(t *testing.T) {
	e := newEnv(t)
	e.load(t, echo())
	res := e.exec("echo", json.RawMessage(`{"text":"hi"}`))
	require.Equal(t, tools.Result{Content: []tools.Content{tools.TextContent("hi")}, Value: "hi"}, res)
}

func TestFailureEnvelopeCarriesInfoOnlyForCodedErrors(t *testing.T) {
	coded := tools.NewError("FsError", "FS_NOT_FOUND", `cannot read "/a": not found`, nil)
	cases := []struct {
		name string
		err  error
		want *tools.ErrorInfo
	}{
		{"plain error", errors.New("file_path must be a non-empty string"), &tools.ErrorInfo{Message: "file_path must be a non-empty string"}},
		{"coded error", coded, &tools.ErrorInfo{Message: `cannot read "/a": not found`, Name: "FsError", Code: "FS_NOT_FOUND"}},
		{"wrapped coded error", fmt.Errorf("outer: %w", coded), &tools.ErrorInfo{Message: `outer: cannot read "/a": not found`, Name: "FsError", Code: "FS_NOT_FOUND"}},
		{"coded without name", codeOnly{}, &tools.ErrorInfo{Message: "code only", Name: "HarnessError", Code: "X_CODE"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.load(t, tool("fail", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { return nil, tc.err }))
			res := e.exec("fail", json.RawMessage(`{}`))
			require.True(t, res.IsError)
			require.Equal(t, []tools.Content{tools.TextContent("Error: " + tc.want.Message)}, res.Content)
			require.Equal(t, tc.want, res.Error)
			require.Nil(t, res.Value)
		})
	}
}

type codeOnly struct{}

func (codeOnly) Error() string { return "code only" }
func (codeOnly) Code() string  { return "X_CODE" }

func TestArgumentsMustBeLosslessJSON(t *testing.T) {
	for name, args := range map[string]any{
		"NaN":           map[string]any{"x": math.NaN()},
		"negative zero": json.RawMessage(`{"x":-0}`),
		"out of range":  json.RawMessage(`{"x":1e400}`),
		"invalid text":  json.RawMessage(`{"x":`),
		"nil":           nil,
	} {
		t.Run(name, func(t *testing.T) {
			requireRefusedAtSnapshot(t, args, "tool execution arguments must be losslessly JSON-serializable")
		})
	}
}

// Arguments holding a string or key that is not valid UTF-8 text are refused
// at the snapshot, before any policy runs, as a plain error (every message:
// argcheck's TestSnapshotRefusesTextThatIsNotUTF8). Raw JSON text and Go
// values alike.
func TestArgumentsMustBeValidUTF8Text(t *testing.T) {
	const prefix = "tool execution arguments must be valid UTF-8 text: "
	cases := map[string]struct {
		args any
		msg  string
	}{
		"invalid byte":        {json.RawMessage("{\"content\":\"a\xffb\"}"), `"content" holds invalid UTF-8 bytes`},
		"lone high surrogate": {json.RawMessage(`{"content":"a\ud800b"}`), `"content" holds the unpaired surrogate \ud800`},
		"an object key":       {json.RawMessage("{\"ok\":1,\"k\xff\":2}"), `a key of "arguments" holds invalid UTF-8 bytes`},
		"go map value":        {map[string]any{"file_path": "f", "content": "a\xffb"}, `"content" holds invalid UTF-8 bytes`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { requireRefusedAtSnapshot(t, tc.args, prefix+tc.msg) })
	}
}

// Valid text passes unchanged, whatever escapes spell it: a surrogate pair,
// an escaped backslash before "ud800", U+FFFD itself, raw non-ASCII.
func TestValidUTF8TextArgumentsReachTheTool(t *testing.T) {
	for raw, want := range map[string]string{
		`{"s":"\ud83d\ude00"}`:     "\U0001F600",
		`{"s":"\uD83D\uDE00x"}`:    "\U0001F600x",
		`{"s":"\\ud800"}`:          `\ud800`,
		`{"s":"\\\ud83d\ude00"}`:   `\` + "\U0001F600",
		`{"s":"\ufffd"}`:           "\uFFFD",
		"{\"s\":\"\xef\xbf\xbd\"}": "\uFFFD",
		`{"s":"é世\u00e9"}`:         "é世é",
		`{"s":"\ud7ff\ue000"}`:     "\uD7FF\uE000",
	} {
		t.Run(raw, func(t *testing.T) {
			e := newEnv(t)
			var got string
			e.load(t, tool("t", func(_ context.Context, args json.RawMessage, _ *tools.Exec) (any, error) {
				var a struct {
					S string `json:"s"`
				}
				require.NoError(t, tools.DecodeArgs(args, &a))
				got = a.S
				return "x", nil
			}))
			res := e.exec("t", json.RawMessage(raw))
			require.False(t, res.IsError, res.Text())
			require.Equal(t, want, got)
		})
	}
}

func TestArgsSnapshotIsCompactAndPrivate(t *testing.T) {
	e := newEnv(t)
	var seen *tools.Exec
	e.load(t, tool("t", func(_ context.Context, args json.RawMessage, exec *tools.Exec) (any, error) {
		seen = exec
		args[0] = 'X' // the body's copy; must not leak into exec.Args
		return "ok", nil
	}))
	res := e.rt.Execute(context.Background(), tools.Call{CallID: "c9", Name: "t", Args: map[string]any{"b": 1, "a": "x"}})
	require.False(t, res.IsError, res.Text())
	require.Equal(t, `{"a":"x","b":1}`, string(seen.Args))
	require.Equal(t, "c9", seen.RootCallID, "RootCallID defaults to CallID")
}

// The snapshot of JSON text is the call's own: a caller that reuses its buffer after Execute
// does not change what the call (or a listener that keeps Exec) saw.
func TestArgsSnapshotOfJSONTextIsACopy(t *testing.T) {
	e := newEnv(t)
	var seen *tools.Exec
	e.load(t, tool("t", func(_ context.Context, _ json.RawMessage, exec *tools.Exec) (any, error) {
		seen = exec
		return "ok", nil
	}))
	for _, args := range []any{json.RawMessage(`{"a":"x"}`), []byte(`{"a":"x"}`)} {
		res := e.rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "t", Args: args})
		require.False(t, res.IsError, res.Text())
		switch b := args.(type) {
		case json.RawMessage:
			copy(b, `{"a":"Y"}`)
		case []byte:
			copy(b, `{"a":"Y"}`)
		}
		require.Equal(t, `{"a":"x"}`, string(seen.Args))
	}
}

func TestAbortedBeforeDispatch(t *testing.T) {
	e := newEnv(t)
	ran := false
	e.load(t, tool("t", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { ran = true; return "x", nil }))
	var results []tools.Result
	_, err := tools.ResultEvent.On(e.root, func(_ context.Context, p tools.ResultArgs) error {
		results = append(results, p.Result())
		return nil
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "t", Args: json.RawMessage(`{}`)})
	want := tools.Result{
		Content: []tools.Content{tools.TextContent("Error: tool call aborted before dispatch")},
		IsError: true,
		Error:   &tools.ErrorInfo{Message: "tool call aborted before dispatch", Name: "AbortError", Code: "ABORTED_BEFORE_DISPATCH"},
	}
	require.Equal(t, want, res)
	require.False(t, ran)
	require.Equal(t, []tools.Result{want}, results, "tools/result still reports the outcome")
}

func TestAbortedDuringPreExecute(t *testing.T) {
	e := newEnv(t)
	ran := false
	e.load(t, tool("t", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { ran = true; return "x", nil }))
	ctx, cancel := context.WithCancel(context.Background())
	_, err := tools.PreExecute.On(e.root, func(_ context.Context, _ *tools.Exec, next func() (tools.Decision, error)) (tools.Decision, error) {
		cancel()
		return next()
	})
	require.NoError(t, err)
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "t", Args: json.RawMessage(`{}`)})
	require.Equal(t, "ABORTED_BEFORE_DISPATCH", res.Code())
	require.False(t, ran)
}

func TestCancellationAfterBodyReplacesSuccess(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	e.load(t,
		tool("ok", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { cancel(); return "written", nil }),
		tool("fail", func(context.Context, json.RawMessage, *tools.Exec) (any, error) {
			cancel()
			return nil, tools.NewError("FsError", "FS_STALE_VERSION", "stale", nil)
		}),
	)
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "ok", Args: json.RawMessage(`{}`)})
	require.Equal(t, tools.Result{
		Content: []tools.Content{tools.TextContent("Error: tool call aborted")},
		IsError: true,
		Error:   &tools.ErrorInfo{Message: "tool call aborted", Name: "AbortError", Code: "ABORTED"},
	}, res)

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	res = e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "fail", Args: json.RawMessage(`{}`)})
	require.Equal(t, "FS_STALE_VERSION", res.Code(), "a failure keeps its own error")
}

func TestUnknownTool(t *testing.T) {
	e := newEnv(t)
	var preSaw, postSaw string
	_, err := tools.PreExecute.On(e.root, func(_ context.Context, x *tools.Exec, next func() (tools.Decision, error)) (tools.Decision, error) {
		preSaw = x.Name
		return next()
	})
	require.NoError(t, err)
	_, err = tools.PostExecute.On(e.root, func(_ context.Context, p tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		postSaw = p.Result.Code()
		return next()
	})
	require.NoError(t, err)
	res := e.exec("nope", json.RawMessage(`{}`))
	require.Equal(t, tools.Result{
		Content: []tools.Content{tools.TextContent(`Error: unknown tool "nope"`)},
		IsError: true,
		Error:   &tools.ErrorInfo{Message: `unknown tool "nope"`, Name: "ToolNotFoundError", Code: "UNKNOWN_TOOL"},
	}, res)
	require.Equal(t, "nope", preSaw, "pre-execute sees unknown names")
	require.Equal(t, "UNKNOWN_TOOL", postSaw, "post-execute sees the failure")
}

func TestPanickingBodyBecomesErrorResult(t *testing.T) {
	e := newEnv(t)
	e.load(t, tool("boom", func(context.Context, json.RawMessage, *tools.Exec) (any, error) { panic("kaboom") }))
	res := e.exec("boom", json.RawMessage(`{}`))
	require.True(t, res.IsError)
	require.Equal(t, `Error: tool "boom" panicked: kaboom`, res.Text())
	require.False(t, res.Error.HasCode())
	require.Equal(t, "kaboom", e.logs.FilterMessage("tool body panicked").All()[0].ContextMap()["panic"])
}

// INVALID_TOOL_OUTPUT: a value's shape is its Go type, so what remains to fail is the projection
// of a value to content and meta.
func TestInvalidToolOutput(t *testing.T) {
	cases := []struct {
		name  string
		def   tools.Definition
		wantM string
	}{
		{"render panics", func() tools.Definition {
			d := raw("t", ok("x"))
			d.Render = func(json.RawMessage, any) []tools.Content { panic(errors.New("renderer exploded")) }
			return d.Definition()
		}(), `tool "t" returned invalid output: output.render failed: renderer exploded`},
		{"render returns an unknown block type", func() tools.Definition {
			d := raw("t", ok("x"))
			d.Render = func(json.RawMessage, any) []tools.Content { return []tools.Content{{Type: "video"}} }
			return d.Definition()
		}(), `tool "t" returned invalid output: output.render returned non-lossless JSON`},
		{"meta panics", func() tools.Definition {
			d := raw("t", ok("x"))
			d.PresentationMeta = func(json.RawMessage, any) any { panic("metadata exploded") }
			return d.Definition()
		}(), `tool "t" returned invalid output: output.presentationMeta failed: metadata exploded`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.load(t, tc.def)
			res := e.exec("t", json.RawMessage(`{}`))
			require.Equal(t, &tools.ErrorInfo{Message: tc.wantM, Name: "ToolOutputError", Code: "INVALID_TOOL_OUTPUT"}, res.Error)
			require.Equal(t, "Error: "+tc.wantM, res.Text())
			require.Nil(t, res.Value)
		})
	}
}

func TestPresentationMetaOnlyForTopLevelCalls(t *testing.T) {
	e := newEnv(t)
	d := raw("t", ok("v"))
	d.PresentationMeta = func(args json.RawMessage, v any) any { return map[string]any{"diffs": []any{}, "v": v} }
	e.load(t, d.Definition())
	res := e.exec("t", json.RawMessage(`{}`))
	require.Equal(t, map[string]any{"diffs": []any{}, "v": "v"}, res.Meta)

	parent := &tools.Exec{CallID: "outer"}
	nested := e.rt.Execute(context.Background(), tools.Call{CallID: "inner", RootCallID: "outer", Name: "t", Args: json.RawMessage(`{}`), Parent: parent})
	require.False(t, nested.IsError)
	require.Nil(t, nested.Meta)
}

// TestSkipMetaSkipsTheProjector pins Call.SkipMeta: the projector does not
// run (so it cannot fail the call) and everything else is unchanged.
func TestSkipMetaSkipsTheProjector(t *testing.T) {
	cases := []struct {
		name string
		meta func(json.RawMessage, any) any
	}{
		{"meta", func(_ json.RawMessage, v any) any { return map[string]any{"v": v} }},
		{"failing meta", func(json.RawMessage, any) any { panic("metadata exploded") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			calls := 0
			d := raw("t", ok(map[string]any{"a": "v"}))
			d.PresentationMeta = func(args json.RawMessage, v any) any { calls++; return tc.meta(args, v) }
			e.load(t, d.Definition())
			res := e.rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "t", Args: json.RawMessage(`{}`), SkipMeta: true})
			require.False(t, res.IsError, res.Text())
			require.Nil(t, res.Meta)
			require.Equal(t, map[string]any{"a": "v"}, res.Value)
			require.Equal(t, `{"a":"v"}`, res.Text())
			require.Zero(t, calls)

			full := e.exec("t", json.RawMessage(`{}`))
			require.Equal(t, 1, calls)
			if tc.name == "meta" {
				require.Equal(t, map[string]any{"v": map[string]any{"a": "v"}}, full.Meta)
				require.Equal(t, res.Content, full.Content)
			} else {
				require.True(t, full.IsError)
			}
		})
	}
}

// TestContentOnly pins Exec.ContentOnly: only a top-level call that skips both the value and the
// meta is content-only; the value still reaches the result as the body returned it.
func TestContentOnly(t *testing.T) {
	e := newEnv(t)
	var seen []bool
	e.load(t, raw("t", func(_ context.Context, _ json.RawMessage, exec *tools.Exec) (any, error) {
		seen = append(seen, exec.ContentOnly())
		return "v", nil
	}).Definition())
	for _, c := range []tools.Call{
		{SkipMeta: true, SkipValue: true},
		{SkipMeta: true},
		{SkipValue: true},
		{},
		{SkipMeta: true, SkipValue: true, Parent: &tools.Exec{CallID: "outer"}, RootCallID: "outer"},
	} {
		c.CallID, c.Name, c.Args = "c", "t", json.RawMessage(`{}`)
		res := e.rt.Execute(context.Background(), c)
		require.False(t, res.IsError, res.Text())
		require.Equal(t, `"v"`, res.Text())
	}
	require.Equal(t, []bool{true, false, false, false, false}, seen)
	require.False(t, (*tools.Exec)(nil).ContentOnly())

	// A listener that may read a value on any key that sees one turns it off while it lives; one
	// tagged ValueBlind does not.
	contentOnly := func() bool {
		seen = nil
		e.rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "t", Args: json.RawMessage(`{}`), SkipMeta: true, SkipValue: true})
		return seen[0]
	}
	wrap := func(_ context.Context, _ *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		return next()
	}
	post := func(_ context.Context, _ tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		return next()
	}
	observe := func(context.Context, tools.ResultArgs) error { return nil }
	for name, on := range map[string]func(...kernel.ListenOption) (kernel.Disposer, error){
		"tools/execute": func(o ...kernel.ListenOption) (kernel.Disposer, error) {
			return tools.ExecuteStep.On(e.root, wrap, o...)
		},
		"tools/execute-change": func(o ...kernel.ListenOption) (kernel.Disposer, error) {
			return tools.ChangeStep.On(e.root, wrap, o...)
		},
		"tools/post-execute": func(o ...kernel.ListenOption) (kernel.Disposer, error) {
			return tools.PostExecute.On(e.root, post, o...)
		},
		"tools/result": func(o ...kernel.ListenOption) (kernel.Disposer, error) {
			return tools.ResultEvent.On(e.root, observe, o...)
		},
	} {
		blind, err := on(kernel.Tag(tools.ValueBlind))
		require.NoError(t, err)
		require.True(t, contentOnly(), "%s: a ValueBlind listener", name)
		reader, err := on()
		require.NoError(t, err)
		require.False(t, contentOnly(), "%s: a listener that may read the value", name)
		require.NoError(t, reader())
		require.True(t, contentOnly(), "%s: the reader disposed", name)
		require.NoError(t, blind())
	}
}

func TestExecuteWrapperControlsBodyContext(t *testing.T) {
	e := newEnv(t)
	started := make(chan struct{})
	e.load(t, tool("slow", func(ctx context.Context, _ json.RawMessage, _ *tools.Exec) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, fmt.Errorf("slow: %w", context.Cause(ctx))
	}))
	// A timeout wrapper on tools/execute narrows the body's context.
	_, err := tools.ExecuteStep.On(e.root, func(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		prev := d.Ctx
		c, cancel := context.WithCancelCause(prev)
		defer cancel(nil)
		go func() {
			<-started
			cancel(errors.New("timed out"))
		}()
		d.Ctx = c
		defer func() { d.Ctx = prev }()
		return next()
	})
	require.NoError(t, err)
	res := e.exec("slow", json.RawMessage(`{}`))
	require.Equal(t, "Error: slow: timed out", res.Text())
}

func TestExecuteWrapperCancelledContextSkipsBody(t *testing.T) {
	e := newEnv(t)
	runs := 0
	e.load(t, countingTool(&runs))
	_, err := tools.ExecuteStep.On(e.root, func(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		c, cancel := context.WithCancel(d.Ctx)
		cancel()
		d.Ctx = c
		return next()
	})
	require.NoError(t, err)
	require.Equal(t, "ABORTED_BEFORE_DISPATCH", e.exec("t", json.RawMessage(`{}`)).Code())
	require.Zero(t, runs)
}

func TestExecuteWrapperCannotDetachCallerCancellation(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	e.load(t, tool("wait", func(c context.Context, _ json.RawMessage, _ *tools.Exec) (any, error) {
		cancel()
		<-c.Done()
		return "late", nil
	}))
	_, err := tools.ExecuteStep.On(e.root, func(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		d.Ctx = context.Background() // tries to detach
		return next()
	})
	require.NoError(t, err)
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "wait", Args: json.RawMessage(`{}`)})
	require.Equal(t, "ABORTED", res.Code())
}

// A wrapper that only adds a value shares the caller's cancellation: the body sees the value, and
// a caller that gives up ends the body's context (the fused context is the wrapper's own).
func TestExecuteValueWrapperKeepsCallerCancellation(t *testing.T) {
	type key struct{}
	e := newEnv(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	e.load(t, tool("wait", func(c context.Context, _ json.RawMessage, _ *tools.Exec) (any, error) {
		if c.Value(key{}) != "tagged" {
			return nil, errors.New("the wrapper's value is missing")
		}
		cancel(errors.New("caller gave up"))
		<-c.Done()
		return nil, fmt.Errorf("wait: %w", context.Cause(c))
	}))
	_, err := tools.ExecuteStep.On(e.root, func(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		prev := d.Ctx
		d.Ctx = context.WithValue(prev, key{}, "tagged")
		defer func() { d.Ctx = prev }()
		return next()
	})
	require.NoError(t, err)
	res := e.rt.Execute(ctx, tools.Call{CallID: "c", Name: "wait", Args: json.RawMessage(`{}`)})
	require.Equal(t, "Error: wait: caller gave up", res.Text())
}

// tools/execute-change wraps the body of a tool that may change its environment, inside the
// tools/execute wrappers, and never a read-only tool's; its wrapper's error ends the call without
// post-execute, as a tools/execute wrapper's does.
func TestExecuteChangeStepWrapsOnlyToolsThatMayChange(t *testing.T) {
	e := newEnv(t)
	ro := raw("ro", ok("r"))
	ro.Annotations.ReadOnly = true
	e.load(t, ro.Definition(), tool("rw", ok("w")), tool("fails", ok("f")))
	var order []string
	_, err := tools.ExecuteStep.On(e.root, func(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		order = append(order, "execute "+d.Exec.Name)
		return next()
	})
	require.NoError(t, err)
	_, err = tools.ChangeStep.On(e.root, func(_ context.Context, d *tools.Dispatch, next func() (tools.Result, error)) (tools.Result, error) {
		order = append(order, "change "+d.Exec.Name)
		if d.Exec.Name == "fails" {
			return tools.Result{}, errors.New("change wrapper failed")
		}
		return next()
	})
	require.NoError(t, err)
	post := 0
	_, err = tools.PostExecute.On(e.root, func(_ context.Context, _ tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		post++
		return next()
	})
	require.NoError(t, err)
	require.Equal(t, `"r"`, e.exec("ro", json.RawMessage(`{}`)).Text())
	require.Equal(t, `"w"`, e.exec("rw", json.RawMessage(`{}`)).Text())
	require.Equal(t, "Error: change wrapper failed", e.exec("fails", json.RawMessage(`{}`)).Text())
	require.Equal(t, []string{"execute ro", "execute rw", "change rw", "execute fails", "change fails"}, order)
	require.Equal(t, 2, post)
}

func TestExecuteWrapperFailureSkipsPostExecute(t *testing.T) {
	e := newEnv(t)
	e.load(t, tool("t", ok("x")))
	post := 0
	_, err := tools.ExecuteStep.On(e.root, func(context.Context, *tools.Dispatch, func() (tools.Result, error)) (tools.Result, error) {
		return tools.Result{}, errors.New("wrapper failed")
	})
	require.NoError(t, err)
	_, err = tools.PostExecute.On(e.root, func(_ context.Context, _ tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		post++
		return next()
	})
	require.NoError(t, err)
	res := e.exec("t", json.RawMessage(`{}`))
	require.Equal(t, "Error: wrapper failed", res.Text())
	require.Zero(t, post)
}

func TestExecuteWrapperAuthoredSuccessIsValidated(t *testing.T) {
	e := newEnv(t)
	e.load(t, tools.Tool[json.RawMessage, string]{
		Name:    "t",
		Execute: func(context.Context, json.RawMessage, *tools.Exec) (string, error) { return "x", nil },
		Render:  func(_ json.RawMessage, v string) []tools.Content { return []tools.Content{tools.TextContent(v)} },
	}.Definition())
	_, err := tools.ExecuteStep.On(e.root, func(context.Context, *tools.Dispatch, func() (tools.Result, error)) (tools.Result, error) {
		return tools.Result{Value: 7, Content: []tools.Content{tools.TextContent("cached")}}, nil
	})
	require.NoError(t, err)
	res := e.exec("t", json.RawMessage(`{}`))
	require.Equal(t, "INVALID_TOOL_OUTPUT", res.Code())
	require.Equal(t, `Error: tool "t" returned invalid output: the value is a int, not the tool's string`, res.Text())
}

func TestExecuteReportsInvalidArgs(t *testing.T) {
	e := newEnv(t)
	called := false
	def := echoTool()
	body := def.Execute
	def.Execute = func(ctx context.Context, args echoArgs, exec *tools.Exec) (string, error) {
		called = true
		return body(ctx, args, exec)
	}
	e.load(t, def.Definition())
	res := e.exec("echo", json.RawMessage(`{"text":1,"extra":true}`))
	require.True(t, res.IsError)
	require.Equal(t, []tools.Content{tools.TextContent(`Error: invalid arguments: "text" must be a string`)}, res.Content)
	require.Equal(t, &tools.ErrorInfo{Message: `invalid arguments: "text" must be a string`, Name: "ToolArgsError", Code: "INVALID_ARGS"}, res.Error)
	require.False(t, called, "the body must not run with invalid arguments")

	res = e.exec("echo", json.RawMessage(`{}`))
	require.Equal(t, `Error: invalid arguments: missing required property "text"`, res.Text())
}
