package app

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// Approve modes of `harness run --approve`.
const (
	approveAllowOnce = "allow-once"
	approveReject    = "reject"
)

// hostApprover is the host's approval channel, provided as the "approval" service when the
// composition provides none. A call that arrived over MCP asks the client through elicitation; any
// other call gets the fixed --approve answer, or Unavailable without one, and the prompt it was not
// shown to anyone is logged (warn when allowed, info otherwise).
type hostApprover struct {
	fixed string
	log   *zap.Logger
}

var _ tools.Approver = (*hostApprover)(nil)

func (a *hostApprover) Request(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	if err := ctx.Err(); err != nil {
		return tools.Cancelled, nil
	}
	if r := inputRoundFrom(ctx); r != nil {
		return r.ask(req)
	}
	if ss := elicitorFrom(ctx); ss != nil {
		return elicitApproval(ctx, ss, req)
	}
	fields := []zap.Field{zap.String("tool", req.ToolName), zap.String("call", req.CallID)}
	switch a.fixed {
	case approveAllowOnce:
		a.log.Warn("approval allowed by --approve allow-once:\n"+approvalPrompt(req), fields...)
		return tools.AllowedOnce, nil
	case approveReject:
		a.log.Info("approval rejected by --approve reject:\n"+approvalPrompt(req), fields...)
		return tools.Rejected, nil
	}
	a.log.Info("approval unavailable (no --approve, no MCP elicitation):\n"+approvalPrompt(req), fields...)
	return tools.Unavailable, nil
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
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: approvalPrompt(req), RequestedSchema: approvalSchema})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Cancelled, nil
		}
		return tools.Unavailable, nil
	}
	return elicitOutcome(res), nil
}

// hostServicesModule loads the host's approval channel into the kernel: as the "approval" service
// when provide is set (no composed plugin provides one), and always as an answerer of user-approval's
// approval/request waterfall, so a composed user-approval plugin routes its questions to the same
// channel (MCP elicitation, or the --approve answer).
func hostServicesModule(a tools.Approver, provide bool) kernel.Module {
	return kernel.Module{
		ID: "harness-host",
		Apply: func(kc *kernel.Context, _ any) error {
			if _, err := userapproval.RequestEvent.Decide(kc, func(ctx context.Context, r *userapproval.Request) (tools.ApprovalOutcome, error) {
				return a.Request(ctx, tools.ApprovalRequest{Session: r.Session, ToolName: r.ToolName, CallID: r.CallID, Reason: r.Reason, Details: r.Details})
			}); err != nil {
				return err
			}
			if !provide {
				return nil
			}
			_, err := tools.Approval.Provide(kc, a)
			return err
		},
	}
}

// provideHostServices loads the host's own services after the composition (see hostServicesModule).
func provideHostServices(k *kernel.Kernel, f *flags, log *zap.Logger) error {
	_, composed := tools.Approval.Get(k.Root())
	_, err := k.Root().Load(hostServicesModule(&hostApprover{fixed: f.approve, log: log}, !composed), nil)
	return err
}
