package main_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The ready line names the version, the composition, the workspace and the transport; with stdin
// not a terminal (a client's pipe) nothing more is said.
func TestReadyLineOrients(t *testing.T) {
	ws := realTemp(t)
	_, stderr, code := runHarness(t, "", "serve", "--cwd", ws)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, regexp.MustCompile(`ready: serving MCP on stdio\t\{"version": "[^"]+", "config": "profile default", "workspace": "`+
		regexp.QuoteMeta(ws)+`", "transport": "stdio", "tools": \[`), stderr)
	assert.Regexp(t, `sandbox roots\t\{"mode": "workspace-write", "writable": \["`+regexp.QuoteMeta(ws)+`"\]`, stderr)
	assert.NotContains(t, stderr, "waiting for an MCP client")

	_, stderr, code = runHarness(t, "", "run", "--cwd", ws, "--profile", "unconfined")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, `ready: reading JSON lines on stdin	{"version": `)
	assert.Contains(t, stderr, `"config": "profile unconfined", "workspace": "`+ws+`", "transport": "json-lines"`)
}

// A YAML cwd that does not exist, or is not a directory, fails the start naming the entry and the
// directory (every call would otherwise fail "not found").
func TestMissingYAMLCwdFailsTheStart(t *testing.T) {
	dir := realTemp(t)
	for _, cwd := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "file")} {
		writeFile(t, filepath.Join(dir, "file"), "")
		cfg := filepath.Join(dir, "c.yaml")
		writeFile(t, cfg, "plugins:\n  - name: fs-local\n    config: { cwd: "+cwd+" }\n  - name: tools\n  - name: tool-fs\n")
		for _, cmd := range []string{"serve", "run"} {
			out, stderr, code := runHarness(t, "", cmd, "--config", cfg)
			assert.Equal(t, 1, code, stderr)
			assert.Empty(t, out)
			assert.Regexp(t, `harness: `+regexp.QuoteMeta(cfg)+`: entry "fs-local": fs-local: cwd `+regexp.QuoteMeta(cwd)+` (does not exist|is not a directory)\n$`, stderr)
		}
	}
}
