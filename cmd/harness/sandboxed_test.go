package main_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// The model-facing texts of a sandbox denial (spec/sandbox.md 3.7) and of the escalation outcomes (3.4).
const (
	deniedText = "Error: [sandbox: file access denied under workspace-write mode]\n" +
		"[sandbox: escalation available — retry this exact operation once with sandbox_permissions " +
		"(the narrowest wider mode that suffices) + justification; the approval prompt asks the user]"
	rejectedText    = `Error: the user rejected escalating this operation to "danger-full-access"`
	unavailableText = `Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available`
)

func TestSandboxedProfileRun(t *testing.T) {
	for _, tc := range []struct {
		approve   []string
		escalated string // text of the escalated write; "" means it succeeds
	}{
		{[]string{"--approve", "allow-once"}, ""},
		{[]string{"--approve", "reject"}, rejectedText},
		{nil, unavailableText},
	} {
		t.Run(append([]string{"approve"}, tc.approve...)[len(tc.approve)], func(t *testing.T) {
			ws, out := realTemp(t), sandboxtest.OutsideDir(t)
			require.NoError(t, mkdir(filepath.Join(ws, ".git")))
			p := startRun(t, append([]string{"--profile", "sandboxed", "--cwd", ws}, tc.approve...)...)
			call := func(args map[string]any) runLine {
				return p.call(jsonLine(map[string]any{"id": 1, "tool": "write", "args": args}))
			}

			r := call(map[string]any{"file_path": "inside.txt", "content": "in\n"})
			require.False(t, r.IsError, r.Text)
			assert.Equal(t, "in\n", readFile(t, filepath.Join(ws, "inside.txt")))

			target := filepath.Join(out, "outside.txt")
			r = call(map[string]any{"file_path": target, "content": "out\n"})
			assert.True(t, r.IsError)
			assert.Equal(t, deniedText, r.Text)
			require.NotNil(t, r.Code)
			assert.Equal(t, "FS_SANDBOX_DENIED", *r.Code)
			assert.NoFileExists(t, target)

			r = call(map[string]any{"file_path": filepath.Join(ws, ".git", "config"), "content": "x\n"})
			assert.Equal(t, deniedText, r.Text, "protected paths stay read-only inside the workspace")
			assert.NoFileExists(t, filepath.Join(ws, ".git", "config"))

			r = call(map[string]any{"file_path": target, "content": "out\n",
				"sandbox_permissions": "danger-full-access", "justification": "The user asked for this file."})
			if tc.escalated == "" {
				require.False(t, r.IsError, r.Text)
				assert.Equal(t, "out\n", readFile(t, target))
			} else {
				assert.Equal(t, tc.escalated, r.Text)
				assert.NoFileExists(t, target)
			}

			// A grant is one call's: the next plain call runs under the standing mode again.
			r = call(map[string]any{"file_path": filepath.Join(out, "again.txt"), "content": "x\n"})
			assert.Equal(t, deniedText, r.Text)
		})
	}
}

func TestSandboxedProfileServeAsksThroughElicitation(t *testing.T) {
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	var (
		mu   sync.Mutex
		asks []string
	)
	client := mcp.NewClient(&mcp.Implementation{Name: "harness-test", Version: "0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			asks = append(asks, req.Params.Message)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
		},
	})
	cmd := exec.Command(harnessBin, "serve", "--profile", "sandboxed", "--cwd", ws)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	require.NoError(t, err, stderr.String())
	defer cs.Close()

	// MCP has no per-request context: the standing policies (spec/sandbox.md 4.4, approval:policy of 3.5)
	// follow the guidance in the server instructions.
	wsJSON, err := json.Marshal(ws)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(cs.InitializeResult().Instructions, "\n\nCurrent TOH file policy: workspace-write. "+
		"Any available operation enforced by the TOH file sandbox may modify files under the session workspace: "+string(wsJSON)+
		". Some platform temporary areas may also be writable.\n\nApproval policy: ask. Operations that require approval may ask "+
		"through the configured answerers; without an available answerer, the request fails closed."), cs.InitializeResult().Instructions)

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	for _, tool := range tools.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var schema struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(raw, &schema))
		if tool.Name == "write" || tool.Name == "edit" { // spec/sandbox.md 3.1
			assert.Equal(t, map[string]any{"type": "string", "enum": []any{"workspace-write", "danger-full-access"},
				"description": "The wider sandbox mode this file operation needs. Only valid as a one-shot retry of an operation the sandbox just denied; requires justification and user approval."},
				schema.Properties["sandbox_permissions"], tool.Name)
			assert.Equal(t, map[string]any{"type": "string",
				"description": "Required with sandbox_permissions: one sentence for the user explaining why this exact file operation needs the wider access."},
				schema.Properties["justification"], tool.Name)
		} else {
			assert.NotContains(t, schema.Properties, "sandbox_permissions", tool.Name)
		}
	}

	target := filepath.Join(out, "granted.txt")
	res := call(t, cs, "write", map[string]any{"file_path": target, "content": "x\n"})
	assert.True(t, res.IsError)
	assert.Equal(t, deniedText, text(res))
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_SANDBOX_DENIED"}, res.Meta["error"])

	res = call(t, cs, "write", map[string]any{"file_path": target, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "x\n", readFile(t, target))
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, asks, 1, "one question for one escalation")
	assert.Equal(t, "Allow the \"write\" tool call?\nPath: "+target+"\nMode: danger-full-access (now workspace-write)\n"+
		"Justification: The user asked for it.\nContent: 2 bytes, 1 line\n  | x", asks[0], "the prompt shows what is approved")
}
