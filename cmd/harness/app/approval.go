package app

import (
	"context"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// Approve modes of `harness run --approve`.
const (
	approveAllowOnce = "allow-once"
	approveReject    = "reject"
)

// fixedApprover answers the approval prompts of calls that did not arrive over MCP with the fixed
// --approve answer, or Unavailable without one, and logs the prompt it was not shown to anyone
// (warn when allowed, info otherwise).
type fixedApprover struct {
	fixed string
	log   *zap.Logger
}

var _ tools.Approver = (*fixedApprover)(nil)

func (a *fixedApprover) Request(_ context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	fields := []zap.Field{zap.String("tool", req.ToolName), zap.String("call", req.CallID)}
	switch a.fixed {
	case approveAllowOnce:
		a.log.Warn("approval allowed by --approve allow-once:\n"+mcphost.ApprovalPrompt(req), fields...)
		return tools.AllowedOnce, nil
	case approveReject:
		a.log.Info("approval rejected by --approve reject:\n"+mcphost.ApprovalPrompt(req), fields...)
		return tools.Rejected, nil
	}
	a.log.Info("approval unavailable (no --approve, no MCP elicitation):\n"+mcphost.ApprovalPrompt(req), fields...)
	return tools.Unavailable, nil
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
	a := mcphost.Approver(&fixedApprover{fixed: f.approve, log: log})
	_, err := k.Root().Load(hostServicesModule(a, !composed), nil)
	return err
}
