package app

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/jsonlines"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/mcphost/hosttest"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

func composeGuarded(t *testing.T, approve string) *host {
	t.Helper()
	o := defaultOptions()
	o.modules = []fx.Option{kernelfx.Plugin(hosttest.GuardedTool), kernelfx.Plugin(hosttest.AskGuarded)}
	o.profiles = map[string][]byte{DefaultProfile: []byte("plugins:\n  - name: tools\n  - name: test-guarded\n  - name: test-ask\n")}
	h, err := compose(context.Background(), o, &flags{workdir: t.TempDir(), approve: approve}, zaptest.NewLogger(t))
	require.NoError(t, err)
	t.Cleanup(h.close)
	return h
}

// runLines runs the run protocol over h's tools with input in.
func runLines(t *testing.T, h *host, in string, out io.Writer) error {
	t.Helper()
	r, err := jsonlines.New(h.k.Root(), jsonlines.Options{})
	require.NoError(t, err)
	return r.Serve(context.Background(), strings.NewReader(in), out)
}

func TestApprovalInRun(t *testing.T) {
	tests := []struct{ approve, want string }{
		{approveAllowOnce, `"isError":false,"text":"ran"`},
		{approveReject, `"text":"Error: the user rejected tool \"guarded\""`},
		{"", `"text":"Error: tool \"guarded\" requires approval, but no approval channel is available"`},
	}
	for _, tt := range tests {
		t.Run("approve="+tt.approve, func(t *testing.T) {
			h := composeGuarded(t, tt.approve)
			var out bytes.Buffer
			in := `{"id":1,"tool":"guarded"}` + "\n" + `{"id":2,"tool":"guarded","session":null}` + "\n"
			require.NoError(t, runLines(t, h, in, &out))
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			require.Len(t, lines, 2)
			assert.Contains(t, lines[0], tt.want)
			assert.Contains(t, lines[1], `requires approval, but the call has no agent to route it through`)
		})
	}
}

func TestComposedApprovalProviderWins(t *testing.T) {
	mine := &fixedApprover{fixed: approveReject, log: zaptest.NewLogger(t)}
	o := defaultOptions()
	o.modules = []fx.Option{kernelfx.Plugin(toolstest.ProvideApproval("test-approval", mine))}
	o.profiles = map[string][]byte{DefaultProfile: []byte("plugins:\n  - name: tools\n  - name: test-approval\n")}
	h, err := compose(context.Background(), o, &flags{workdir: t.TempDir(), approve: approveAllowOnce}, zaptest.NewLogger(t))
	require.NoError(t, err)
	defer h.close()
	got, ok := tools.Approval.Get(h.k.Root())
	require.True(t, ok)
	assert.Same(t, mine, got, "the host adds its channel only when the composition provides none")
}

// In `harness run --approve` the prompt is not interactive: the host logs it to stderr, at warn
// when --approve allow-once let the call through and at info when the call was rejected or no
// channel could answer, so the operator sees what was decided about what.
func TestRunApproveLogsThePrompt(t *testing.T) {
	for _, c := range []struct {
		approve string
		level   zapcore.Level
		message string
		landed  bool
	}{
		{approveAllowOnce, zapcore.WarnLevel, "approval allowed by --approve allow-once:", true},
		{approveReject, zapcore.InfoLevel, "approval rejected by --approve reject:", false},
		{"", zapcore.InfoLevel, "approval unavailable (no --approve, no MCP elicitation):", false},
	} {
		t.Run("approve="+c.approve, func(t *testing.T) {
			ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
			core, logs := observer.New(zapcore.InfoLevel)
			h, err := compose(context.Background(), defaultOptions(), &flags{profile: "sandboxed", workdir: ws, approve: c.approve}, zap.New(core))
			require.NoError(t, err)
			defer h.close()
			target := filepath.Join(out, "x.txt")
			in := `{"id":1,"tool":"write","args":{"file_path":"` + target + `","content":"x\n","sandbox_permissions":"danger-full-access","justification":"The user asked for it."}}` + "\n"
			var stdout bytes.Buffer
			require.NoError(t, runLines(t, h, in, &stdout))
			prompt := `Allow the "write" tool call?
Path: ` + target + `
Mode: danger-full-access (now workspace-write)
Justification: The user asked for it.
Content: 2 bytes, 1 line
  | x`
			entries := logs.FilterMessage(c.message + "\n" + prompt).All()
			require.Len(t, entries, 1, "%v", logs.All())
			assert.Equal(t, c.level, entries[0].Level)
			assert.Equal(t, map[string]any{"tool": "write", "call": "call_1"}, entries[0].ContextMap())
			_, err = os.Stat(target)
			assert.Equal(t, c.landed, err == nil)
		})
	}
}
