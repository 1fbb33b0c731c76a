package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `serve --model NAME` sets the model of every session it serves, so a model-keyed expose rule
// decides tools/list (on stdio at every protocol version, and over HTTP); without --model the rule
// never matches.
func TestServeModelFlagKeysExposeRules(t *testing.T) {
	cfg := exposeConfig(t, `model: "gpt-*"`)
	for _, version := range exposeVersions {
		t.Run("stdio "+version, func(t *testing.T) {
			cs, _ := serveAtVersion(t, "some-client", version, "--config", cfg, "--model", "gpt-5")
			checkExposure(t, cs, "apply_patch", "edit")
			cs, _ = serveAtVersion(t, "some-client", version, "--config", cfg)
			checkExposure(t, cs, "edit", "apply_patch")
		})
	}
	s := startHTTPServe(t, "127.0.0.1:0", "--config", cfg, "--model", "gpt-5")
	for _, version := range exposeVersions {
		t.Run("http "+version, func(t *testing.T) {
			checkExposure(t, s.connectAs(t, "some-client", version, "", nil), "apply_patch", "edit")
		})
	}
}

// `run --client NAME` names the client of every session, so the result budget by client applies:
// claude-code's wider budget, as under serve with that clientInfo.
func TestRunClientFlagSizesTheBudget(t *testing.T) {
	dir := realTemp(t)
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		b.WriteString("\tif err := step(ctx, " + strconv.Itoa(i) + "); err != nil { return err }\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f.go"), []byte(b.String()), 0o644))
	sizes := map[string]int{}
	for name, args := range map[string][]string{"none": nil, "claude-code": {"--client", "claude-code"}} {
		out, stderr, code := runHarness(t, `{"id":1,"tool":"read","args":{"file_path":"f.go"}}`+"\n", append([]string{"run", "--cwd", dir}, args...)...)
		require.Equal(t, 0, code, stderr)
		var line struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &line))
		require.False(t, line.IsError, line.Text)
		sizes[name] = len(line.Text)
	}
	assert.LessOrEqual(t, sizes["none"], 36000)
	assert.Greater(t, sizes["none"], 35000)
	assert.LessOrEqual(t, sizes["claude-code"], 48000)
	assert.Greater(t, sizes["claude-code"], 47000)
}
