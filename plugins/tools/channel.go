package tools

import "context"

type approvalChannelKey struct{}

// WithApprovalChannel returns ctx recording whether the call it is passed to has a channel to a
// person who can answer an approval prompt (MCP elicitation, the 2026-07-28 input request,
// `harness run --approve`). A host sets it; a tool that would offer an escalation reads it with
// ApprovalChannelOf and, without a channel, says instead how the user widens the access
// (docs/sandbox.md "Denials").
func WithApprovalChannel(ctx context.Context, has bool) context.Context {
	return context.WithValue(ctx, approvalChannelKey{}, has)
}

// ApprovalChannelOf returns what WithApprovalChannel recorded on ctx; known is false when no host
// said (an escalation is then offered, as before).
func ApprovalChannelOf(ctx context.Context) (has, known bool) {
	has, known = ctx.Value(approvalChannelKey{}).(bool)
	return has, known
}
