package mcphost

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// The choices of the approval form.
const (
	approveAllowOnce = "allow-once"
	approveReject    = "reject"
)

// Approver returns the host's approval channel: a call that arrived over MCP asks its client (an
// input request under 2026-07-28, else elicitation when the client declares it); any other call is
// asked of fallback, or is Unavailable without one. A cancelled call is Cancelled. A host provides it
// as the "approval" service (tools.Approval) when its composition provides none.
func Approver(fallback tools.Approver) tools.Approver { return &approver{fallback: fallback} }

type approver struct{ fallback tools.Approver }

func (a *approver) Request(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	if err := ctx.Err(); err != nil {
		return tools.Cancelled, nil
	}
	if r := inputRoundFrom(ctx); r != nil {
		return r.ask(req)
	}
	if ss := elicitorFrom(ctx); ss != nil {
		return elicitApproval(ctx, ss, req)
	}
	if a.fallback == nil {
		return tools.Unavailable, nil
	}
	return a.fallback.Request(ctx, req)
}

// approvalSchema is the elicitation form: one required choice.
var approvalSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"decision": map[string]any{
			"type":        "string",
			"title":       "Decision",
			"enum":        []string{approveAllowOnce, approveReject},
			"description": "allow-once runs this one call; reject refuses it.",
		},
	},
	"required": []string{"decision"},
}

// elicitApproval asks the MCP client. A client without elicitation yields Unavailable; decline is a
// rejection and cancel a cancellation.
func elicitApproval(ctx context.Context, ss *mcp.ServerSession, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	if !canElicit(ss) {
		return tools.Unavailable, nil
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: ApprovalPrompt(req), RequestedSchema: approvalSchema})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Cancelled, nil
		}
		return tools.Unavailable, nil
	}
	return elicitOutcome(res), nil
}

type elicitorKey struct{}

// withElicitor records the MCP connection a call arrived on, so an approval prompt raised during the
// call can be sent to that client through elicitation.
func withElicitor(ctx context.Context, ss *mcp.ServerSession) context.Context {
	if ss == nil {
		return ctx
	}
	return context.WithValue(ctx, elicitorKey{}, ss)
}

// elicitorFrom returns the MCP connection of the call running under ctx, or nil.
func elicitorFrom(ctx context.Context) *mcp.ServerSession {
	ss, _ := ctx.Value(elicitorKey{}).(*mcp.ServerSession)
	return ss
}
