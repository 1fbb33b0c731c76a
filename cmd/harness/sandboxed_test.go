package main_test

import (
	"context"
	"encoding/json"
	"errors"
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

// The model-facing texts of a sandbox denial and of the escalation outcomes (docs/tool-fs.md
// "Sandbox escalation").
const (
	deniedText = "Error: [sandbox: file access denied under workspace-write mode]\n" +
		"[sandbox: escalation available — retry this exact operation once with sandbox_permissions " +
		"(the narrowest wider mode that suffices) + justification; the approval prompt asks the user]"
	// deniedMarker is the first line of every sandbox denial; the lines after it are the escalation
	// hint (where an approval channel exists), the path and the roots, and (without a channel) how
	// the user widens them.
	deniedMarker    = "Error: [sandbox: file access denied under workspace-write mode]"
	rejectedText    = `Error: the user rejected escalating this operation to "danger-full-access"`
	unavailableText = `Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available`
)

// assertDenied checks a write denial: the marker line, the escalation line exactly when the call
// has an approval channel (else the line that says how to widen the roots), and the path.
func assertDenied(t *testing.T, got string, channel bool, msgAndArgs ...any) {
	t.Helper()
	assert.True(t, strings.HasPrefix(got, deniedMarker+"\n"), msgAndArgs...)
	assert.Equal(t, channel, strings.HasPrefix(got, deniedText+"\n"), msgAndArgs...)
	assert.Equal(t, !channel, strings.Contains(got, "--root DIR"), msgAndArgs...)
	assert.Contains(t, got, "\ncannot write \"", msgAndArgs...)
}

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
			assertDenied(t, r.Text, tc.approve != nil)
			require.NotNil(t, r.Code)
			assert.Equal(t, "FS_SANDBOX_DENIED", *r.Code)
			assert.NoFileExists(t, target)

			r = call(map[string]any{"file_path": filepath.Join(ws, ".git", "config"), "content": "x\n"})
			assertDenied(t, r.Text, tc.approve != nil, "protected paths stay read-only inside the workspace")
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
			assertDenied(t, r.Text, tc.approve != nil)
		})
	}
}

// Under 2026-07-28 the question is an input request in the call's result, answered by the client's
// retry; under 2025-11-25 it is an elicitation request during the call. The user sees the same.
func TestSandboxedProfileServeAsksThroughElicitation(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) { serveAsksThroughElicitation(t, version) })
	}
}

func serveAsksThroughElicitation(t *testing.T, version string) {
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
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err, stderr.String())
	defer cs.Close()
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion)

	// MCP has no per-request context: the standing policies (sandbox:policy and approval:policy)
	// follow the guidance in the server instructions (docs/host.md "Server instructions").
	wsJSON, err := json.Marshal(ws)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(cs.InitializeResult().Instructions, "\n\nCurrent file policy: workspace-write. "+
		"Any available operation enforced by the file sandbox may modify files under the session workspace: "+string(wsJSON)+
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
		if tool.Name == "write" || tool.Name == "edit" || tool.Name == "apply_patch" || tool.Name == "notebook_edit" { // docs/tool-fs.md "Sandbox escalation"
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
	assertDenied(t, text(res), true, "the Go SDK client declares elicitation")
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

// A declined question is a rejection, a cancelled one a cancellation, and a client that cannot be
// asked gets the unavailable refusal; nothing is written in any case. Both ways of asking.
func TestSandboxedProfileServeEscalationRefusals(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		for _, tc := range []struct {
			name   string
			answer *mcp.ElicitResult // nil: the client has no elicitation capability
			want   string
		}{
			{"declined", &mcp.ElicitResult{Action: "decline"}, `Error: the user rejected escalating this operation to "danger-full-access"`},
			{"cancelled", &mcp.ElicitResult{Action: "cancel"}, `Error: approval for escalating to "danger-full-access" was cancelled`},
			{"rejected in the form", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "reject"}}, `Error: the user rejected escalating this operation to "danger-full-access"`},
			{"no elicitation", nil, `Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available`},
		} {
			t.Run(version+"/"+tc.name, func(t *testing.T) {
				ws, out := realTemp(t), sandboxtest.OutsideDir(t)
				opts := &mcp.ClientOptions{}
				asked := 0
				if tc.answer != nil {
					opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked++
						return tc.answer, nil
					}
				}
				client := mcp.NewClient(&mcp.Implementation{Name: "harness-test", Version: "0"}, opts)
				cmd := exec.Command(harnessBin, "serve", "--profile", "sandboxed", "--cwd", ws)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second},
					&mcp.ClientSessionOptions{ProtocolVersion: version})
				require.NoError(t, err)
				defer cs.Close()
				require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
				target := filepath.Join(out, "refused.txt")
				res := call(t, cs, "write", map[string]any{"file_path": target, "content": "x\n",
					"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."})
				assert.True(t, res.IsError)
				assert.Equal(t, tc.want, text(res))
				assert.NoFileExists(t, target)
				if tc.answer != nil {
					assert.Equal(t, 1, asked, "asked once")
				}
			})
		}
	}
}

// An input response counts only with the request state the server issued for this very call:
// answers without a state, with a tampered one, or with the state of another call are asked again,
// and nothing is written until a real round grants the call.
func TestSandboxedProfileInputResponsesNeedTheirState(t *testing.T) {
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	client := mcp.NewClient(&mcp.Implementation{Name: "harness-test", Version: "0"}, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, // the test plays the client's part
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not called: the test answers input requests itself")
		},
	})
	cmd := exec.Command(harnessBin, "serve", "--profile", "sandboxed", "--cwd", ws)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	require.NoError(t, err)
	defer cs.Close()

	target := filepath.Join(out, "guarded.txt")
	args := func(content string) map[string]any {
		return map[string]any{"file_path": target, "content": content,
			"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}
	}
	grant := mcp.InputResponseMap{"approval-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}}
	send := func(p *mcp.CallToolParams) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, p)
		require.NoError(t, err)
		return res
	}

	first := send(&mcp.CallToolParams{Name: "write", Arguments: args("x\n")})
	require.True(t, first.NeedsInput(), "the escalation is asked as an input request")
	require.Contains(t, first.InputRequests, "approval-1")
	ask, ok := first.InputRequests["approval-1"].(*mcp.ElicitParams)
	require.True(t, ok)
	assert.Contains(t, ask.Message, "Mode: danger-full-access")
	assert.Contains(t, ask.Message, "Justification: The user asked for it.")
	require.NotEmpty(t, first.RequestState)

	forged := []struct {
		name  string
		state string
		args  map[string]any
	}{
		{"no state", "", args("x\n")},
		{"tampered state", first.RequestState[:len(first.RequestState)-2] + "AA", args("x\n")},
		{"another call's state", first.RequestState, args("something else\n")},
	}
	for _, f := range forged {
		res := send(&mcp.CallToolParams{Name: "write", Arguments: f.args, InputResponses: grant, RequestState: f.state})
		assert.True(t, res.NeedsInput(), "%s: asked again", f.name)
		assert.NoFileExists(t, target, f.name)
	}

	res := send(&mcp.CallToolParams{Name: "write", Arguments: args("x\n"), InputResponses: grant, RequestState: first.RequestState})
	require.False(t, res.NeedsInput())
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "x\n", readFile(t, target))

	// The grant was for one call: replaying the answered round asks again.
	writeFile(t, target, "changed since\n")
	res = send(&mcp.CallToolParams{Name: "write", Arguments: args("x\n"), InputResponses: grant, RequestState: first.RequestState})
	assert.True(t, res.NeedsInput(), "a replayed answer is asked again")
	assert.Equal(t, "changed since\n", readFile(t, target))
}
