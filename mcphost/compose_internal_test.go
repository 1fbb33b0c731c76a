package mcphost

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/mcphost/hosttest"
	attachmentlocal "github.com/cordon-dev/cordon/plugins/attachments/local"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/modelcatalog"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// TestMain keeps the attachment store and fs-history's store (under the user's state directory)
// in a temporary directory for the whole run.
func TestMain(m *testing.M) { os.Exit(hosttest.RunInStateDir(m, "mcphost-state-")) }

// host is a kernel composed for a test, with the host's approval channel loaded the way
// `harness` loads it.
type host struct {
	app *fx.App
	k   *kernel.Kernel
	ld  *loader.Loader
}

func (h *host) close() { _ = h.app.Stop(context.Background()) }

// profileYAML is the stock harness's profile ("" for the default one) with the workspace ws.
func profileYAML(profile, ws string) string {
	q := strconv.Quote(ws)
	tail := "  - name: fs-observation-policy\n  - name: tools\n  - name: tool-fs\n  - name: tool-fs-search\n" +
		"  - name: tool-apply-patch\n  - name: attachment-local\n  - name: model-catalog\n"
	if profile == "sandboxed" {
		return "plugins:\n  - name: sandbox-policy\n    config: {mode: workspace-write, workspaceRoot: " + q + "}\n" +
			"  - name: fs-sandbox\n    config: {cwd: " + q + "}\n" + tail + "  - name: user-approval\n  - name: fs-history\n"
	}
	return "plugins:\n  - name: fs-local\n    config: {cwd: " + q + "}\n" + tail + "  - name: fs-history\n"
}

// composeProfile composes the stock profile with the workspace ws.
func composeProfile(t *testing.T, profile, ws string, log *zap.Logger) *host {
	return composeYAML(t, profileYAML(profile, ws), log)
}

// composeYAML composes a composition over the stock plugins and extra ones; the caller closes it.
func composeYAML(t *testing.T, yaml string, log *zap.Logger, extra ...fx.Option) *host {
	t.Helper()
	if log == nil {
		log = zaptest.NewLogger(t)
	}
	h := &host{}
	opts := []fx.Option{fx.NopLogger, fx.Supply(log), kernelfx.Module, kernelfx.YAML([]byte(yaml)), fx.Populate(&h.k, &h.ld),
		fslocal.Module, fspolicy.Module, tools.Module, toolfs.Module, toolapplypatch.Module, toolfssearch.Module,
		attachmentlocal.Module, modelcatalog.Module, sandboxpolicy.Module, fssandbox.Module, userapproval.Module,
		fshistory.Module}
	h.app = fx.New(append(opts, extra...)...)
	require.NoError(t, h.app.Start(context.Background()))
	a := Approver(nil)
	_, composed := tools.Approval.Get(h.k.Root())
	_, err := h.k.Root().Load(kernel.Module{ID: "test-host", Apply: func(kc *kernel.Context, _ any) error {
		if _, err := userapproval.RequestEvent.Decide(kc, func(ctx context.Context, r *userapproval.Request) (tools.ApprovalOutcome, error) {
			return a.Request(ctx, tools.ApprovalRequest{Session: r.Session, ToolName: r.ToolName, CallID: r.CallID, Reason: r.Reason, Details: r.Details})
		}); err != nil || composed {
			return err
		}
		_, err := tools.Approval.Provide(kc, a)
		return err
	}}, nil)
	require.NoError(t, err)
	return h
}

// newToolsEngine is the engine of a composed kernel.
func newToolsEngine(k *kernel.Kernel) (*engine.Tools, error) { return engine.New(k.Root()) }
