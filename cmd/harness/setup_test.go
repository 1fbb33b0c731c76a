package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setupRun runs harness setup args in dir with HOME (and the clients' config homes) in home.
func setupRun(t *testing.T, home, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(harnessBin, append([]string{"setup"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

func jsonAt(t *testing.T, path string, keys ...string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(readFile(t, path)), &v), path)
	for _, k := range keys {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s: %s is not an object", path, k)
		v = m[k]
	}
	return v
}

// setup CLIENT --write writes the client's own file, in its project or user scope, with this
// binary's absolute path and serve; the other entries stay, a second run changes nothing, and a
// change leaves the previous file as FILE.cordon-backup.
func TestSetupWritesEachClientsFile(t *testing.T) {
	home := realTemp(t)
	proj := filepath.Join(home, "proj")
	require.NoError(t, os.Mkdir(proj, 0o755))
	bin, err := filepath.EvalSymlinks(harnessBin)
	require.NoError(t, err)
	stdio := map[string]any{"type": "stdio", "command": bin, "args": []any{"serve"}}
	tests := []struct {
		client, scope, file string
		keys                []string
		want                any
	}{
		{"claude-code", "project", filepath.Join(proj, ".mcp.json"), []string{"mcpServers", "cordon"}, stdio},
		{"claude-code", "user", filepath.Join(home, ".claude.json"), []string{"mcpServers", "cordon"}, stdio},
		{"opencode", "project", filepath.Join(proj, "opencode.json"), []string{"mcp", "cordon"},
			map[string]any{"type": "local", "command": []any{bin, "serve"}, "enabled": true}},
		{"opencode", "user", filepath.Join(home, ".config", "opencode", "opencode.json"), []string{"mcp", "cordon"},
			map[string]any{"type": "local", "command": []any{bin, "serve"}, "enabled": true}},
		{"gemini", "project", filepath.Join(proj, ".gemini", "settings.json"), []string{"mcpServers", "cordon"},
			map[string]any{"command": bin, "args": []any{"serve"}}},
		{"gemini", "user", filepath.Join(home, ".gemini", "settings.json"), []string{"mcpServers", "cordon"},
			map[string]any{"command": bin, "args": []any{"serve"}}},
		{"vscode", "project", filepath.Join(proj, ".vscode", "mcp.json"), []string{"servers", "cordon"},
			map[string]any{"type": "stdio", "command": bin, "args": []any{"serve", "--cwd", "${workspaceFolder}"}}},
		{"cursor", "project", filepath.Join(proj, ".cursor", "mcp.json"), []string{"mcpServers", "cordon"},
			map[string]any{"command": bin, "args": []any{"serve", "--cwd", "${workspaceFolder}"}}},
		{"cursor", "user", filepath.Join(home, ".cursor", "mcp.json"), []string{"mcpServers", "cordon"},
			map[string]any{"command": bin, "args": []any{"serve", "--cwd", "${workspaceFolder}"}}},
	}
	for _, tt := range tests {
		t.Run(tt.client+"-"+tt.scope, func(t *testing.T) {
			// Printed: the client's own shape, nothing written.
			out, stderr, code := setupRun(t, home, proj, tt.client, "--scope", tt.scope)
			require.Equal(t, 0, code, stderr)
			assert.Contains(t, stderr, tt.file)
			assert.NoFileExists(t, tt.file)
			var printed any
			require.NoError(t, json.NewDecoder(strings.NewReader(out)).Decode(&printed), out) // the first file's
			for _, k := range tt.keys {
				printed = printed.(map[string]any)[k]
			}
			assert.Equal(t, tt.want, printed)

			// Written next to another entry, which stays.
			require.NoError(t, os.MkdirAll(filepath.Dir(tt.file), 0o755))
			other := `{"` + tt.keys[0] + `": {"other": {"command": "x"}}, "keep": [1, 2]}`
			require.NoError(t, os.WriteFile(tt.file, []byte(other), 0o600))
			out, stderr, code = setupRun(t, home, proj, tt.client, "--write", "--scope", tt.scope)
			require.Equal(t, 0, code, stderr)
			assert.Contains(t, out, tt.file+": updated (the previous file is "+tt.file+".cordon-backup)\n")
			assert.Equal(t, tt.want, jsonAt(t, tt.file, tt.keys...))
			assert.Equal(t, map[string]any{"command": "x"}, jsonAt(t, tt.file, tt.keys[0], "other"))
			assert.Equal(t, []any{1.0, 2.0}, jsonAt(t, tt.file, "keep"))
			assert.Equal(t, other, readFile(t, tt.file+".cordon-backup"))
			st, err := os.Stat(tt.file)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the file keeps its mode")

			// Idempotent: the second run writes nothing.
			before := readFile(t, tt.file)
			require.NoError(t, os.Remove(tt.file+".cordon-backup"))
			out, _, code = setupRun(t, home, proj, tt.client, "--write", "--scope", tt.scope)
			require.Equal(t, 0, code)
			assert.Contains(t, out, tt.file+": already set, unchanged\n")
			assert.NotContains(t, out, "updated")
			assert.Equal(t, before, readFile(t, tt.file))
			assert.NoFileExists(t, tt.file+".cordon-backup")
		})
	}
}

// In a project, Claude Code's approval of the .mcp.json server is the user's own
// .claude/settings.local.json (running setup is that approval).
func TestSetupClaudeCodeApprovesTheProjectServer(t *testing.T) {
	home := realTemp(t)
	_, stderr, code := setupRun(t, home, home, "claude-code", "--write")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, []any{"cordon"}, jsonAt(t, filepath.Join(home, ".claude", "settings.local.json"), "enabledMcpjsonServers"))
	assert.Contains(t, stderr, "trust the folder")
}

// Codex's config.toml gets the one table; every other byte stays.
func TestSetupCodexKeepsTheRestOfConfigTOML(t *testing.T) {
	home := realTemp(t)
	file := filepath.Join(home, ".codex", "config.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
	old := "# mine\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n"
	writeFile(t, file, old)
	bin, err := filepath.EvalSymlinks(harnessBin)
	require.NoError(t, err)
	out, stderr, code := setupRun(t, home, home, "codex", "--write")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, file+": updated")
	assert.Equal(t, old+"\n[mcp_servers.cordon]\ncommand = "+strings.ReplaceAll(jsonString(t, bin), `\/`, "/")+"\nargs = [\"serve\"]\n", readFile(t, file))
	assert.Equal(t, old, readFile(t, file+".cordon-backup"))

	_, stderr, code = setupRun(t, home, home, "codex", "--scope", "project")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "setup: Codex CLI has no project scope")
}

func jsonString(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

// --disable-builtin-tools writes the client's own switch for its file tools, merged with what the
// user denied already; --http writes the URL and the token of --token-file.
func TestSetupBuiltinToolsAndHTTP(t *testing.T) {
	home := realTemp(t)
	settings := filepath.Join(home, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(settings), 0o755))
	writeFile(t, settings, `{"permissions": {"deny": ["Bash(rm:*)", "Read"]}}`)
	_, stderr, code := setupRun(t, home, home, "claude-code", "--write", "--scope", "user", "--disable-builtin-tools")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, []any{"Bash(rm:*)", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep"},
		jsonAt(t, settings, "permissions", "deny"))

	proj := filepath.Join(home, "p")
	require.NoError(t, os.Mkdir(proj, 0o755))
	_, stderr, code = setupRun(t, home, proj, "gemini", "--write", "--disable-builtin-tools")
	require.Equal(t, 0, code, stderr)
	gem := filepath.Join(proj, ".gemini", "settings.json")
	assert.Equal(t, []any{"read_file", "read_many_files", "write_file", "replace", "GlobTool", "grep_search"}, jsonAt(t, gem, "tools", "exclude"))
	assert.Contains(t, stderr, "trust")

	_, stderr, code = setupRun(t, home, proj, "opencode", "--write", "--disable-builtin-tools")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, map[string]any{"read": "deny", "edit": "deny", "glob": "deny", "grep": "deny", "list": "deny"},
		jsonAt(t, filepath.Join(proj, "opencode.json"), "permission"))

	_, stderr, code = setupRun(t, home, proj, "cursor", "--disable-builtin-tools")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "Cursor has no configuration file setting")

	tokens := filepath.Join(home, "tokens")
	writeFile(t, tokens, "# tokens\nci:0123456789abcdef0123\n")
	out, stderr, code := setupRun(t, home, proj, "vscode", "--http", "http://127.0.0.1:8931/mcp", "--token-file", tokens)
	require.Equal(t, 0, code, stderr)
	assert.JSONEq(t, `{"servers": {"cordon": {"type": "http", "url": "http://127.0.0.1:8931/mcp",
		"headers": {"Authorization": "Bearer 0123456789abcdef0123"}}}}`, out)

	for _, bad := range [][]string{{"vscode", "--http", "ftp://x"}, {"vscode", "--token-file", tokens}, {"emacs"}, {}, {"codex", "--scope", "team"}} {
		_, stderr, code := setupRun(t, home, proj, bad...)
		assert.Equal(t, 2, code, "%v: %s", bad, stderr)
		assert.Equal(t, 2, strings.Count(stderr, "\n"), stderr)
	}
}
