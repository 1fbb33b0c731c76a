package main_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exposeConfig composes read, write, edit and apply_patch under the expose rules of docs/tools.md
// "Exposure": the sessions that match (a rule key such as `client: codex` or `model: "gpt-*"`) see
// apply_patch and not edit, every other session edit and not apply_patch.
func exposeConfig(t *testing.T, match string) string {
	t.Helper()
	dir := realTemp(t)
	p := filepath.Join(dir, "expose.yaml")
	writeFile(t, p, fmt.Sprintf(`plugins:
  - name: fs-local
    config: { cwd: %q }
  - name: tools
    config:
      expose:
        - %s
          hide: [edit]
        - hide: [apply_patch]
  - name: tool-fs
  - name: tool-apply-patch
`, dir, match))
	return p
}

func listed(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// callErr calls tool and returns the JSON-RPC error the call is refused with.
func callErr(t *testing.T, cs *mcp.ClientSession, tool string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
	require.Error(t, err, "%s: a result, not a refusal: %+v", tool, res)
	return err
}

// checkExposure checks what a session of client sees: the listed tools, and a call of the hidden
// tool refused exactly as a call of a tool the server does not have.
func checkExposure(t *testing.T, cs *mcp.ClientSession, shown, hidden string) {
	t.Helper()
	names := listed(t, cs)
	assert.Contains(t, names, shown)
	assert.Contains(t, names, "read")
	assert.NotContains(t, names, hidden)
	got, unknown := callErr(t, cs, hidden).Error(), callErr(t, cs, "no_such_tool").Error()
	assert.Contains(t, got, fmt.Sprintf("unknown tool %q", hidden))
	assert.Equal(t, unknown, strings.ReplaceAll(got, hidden, "no_such_tool"), "refused as an unknown tool")
	assert.True(t, call(t, cs, "read", map[string]any{"file_path": "missing.txt"}).IsError, "a shown tool still runs")
}

// On stdio, at every protocol version, the first matching expose rule, by the clientInfo name,
// decides the tools a session lists, and a call of a hidden tool is refused as a call of an unknown
// tool (before 2026-07-28 a plain call takes the direct call path).
func TestServeListsTheSessionsExposedTools(t *testing.T) {
	cfg := exposeConfig(t, "client: codex")
	for _, version := range exposeVersions {
		t.Run(version, func(t *testing.T) {
			checkExposure(t, serveAt(t, "codex", version, cfg), "apply_patch", "edit")
			checkExposure(t, serveAt(t, "claude-code", version, cfg), "edit", "apply_patch")
		})
	}
}

var exposeVersions = []string{"2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"}

// serveAt serves the config to a client at version.
func serveAt(t *testing.T, client, version, config string) *mcp.ClientSession {
	t.Helper()
	cs, _ := serveAtVersion(t, client, version, "--config", config)
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
	return cs
}

// Over HTTP, at every protocol version (under 2026-07-28 the client info comes with each request),
// each session lists and calls the tools its client is exposed.
func TestServeHTTPListsTheSessionsExposedTools(t *testing.T) {
	s := startHTTPServe(t, "127.0.0.1:0", "--config", exposeConfig(t, "client: codex"))
	for _, version := range exposeVersions {
		t.Run(version, func(t *testing.T) {
			checkExposure(t, s.connectAs(t, "codex", version, "", nil), "apply_patch", "edit")
			checkExposure(t, s.connectAs(t, "claude-code", version, "", nil), "edit", "apply_patch")
		})
	}
}
