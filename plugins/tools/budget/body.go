package budget

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Of returns the budget of a call: its session's client's (tools.Header.Client).
func (t Table) Of(exec *tools.Exec) int { return t.For(exec.Header().Client) }

// Errors wraps a tool body so that its failures fit the call's budget (Error).
func Errors[In, Out any](t Table, body func(context.Context, In, *tools.Exec) (Out, error)) func(context.Context, In, *tools.Exec) (Out, error) {
	return func(ctx context.Context, in In, exec *tools.Exec) (Out, error) {
		out, err := body(ctx, in, exec)
		if err != nil {
			return out, Error(err, t.Of(exec))
		}
		return out, nil
	}
}
