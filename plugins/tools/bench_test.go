package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// BenchmarkExecute measures one echo call through the whole pipeline with one
// listener on each pipeline key.
func BenchmarkExecute(b *testing.B) {
	k := kernel.New(kernel.WithLogger(zap.NewNop()))
	defer func() { _ = k.Close(context.Background()) }()
	root := k.Root()
	if _, err := root.Load(tools.Plugin, nil); err != nil {
		b.Fatal(err)
	}
	rt, _ := tools.Service.Get(root)
	if _, err := rt.Register(root, echo()); err != nil {
		b.Fatal(err)
	}
	_, _ = tools.PreExecute.On(root, func(_ context.Context, _ *tools.Exec, next func() (tools.Decision, error)) (tools.Decision, error) {
		return next()
	})
	_, _ = tools.PostExecute.On(root, func(_ context.Context, _ tools.PostArgs, next func() (tools.PostDecision, error)) (tools.PostDecision, error) {
		return next()
	})
	_, _ = tools.ResultEvent.On(root, func(context.Context, tools.ResultArgs) error { return nil })
	args := json.RawMessage(`{"text":"hello world","extra":{"a":[1,2,3]}}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := rt.Execute(ctx, tools.Call{CallID: "c", Name: "echo", Args: args}); res.IsError {
			b.Fatal(res.Text())
		}
	}
}
