package main_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each plugin added to the embedded profiles fails the start on a bad config, naming the entry and
// the key, with exit status 1 and nothing on stdout; so does a composition with two fs providers.
func TestNewPluginsBadConfigFailAtStart(t *testing.T) {
	dir := realTemp(t)
	for i, tc := range []struct {
		yaml string
		want []string
	}{
		{"[{name: tools}, {name: attachment-local, config: {maxImagBytes: 1}}]", []string{`entry "attachment-local"`, `unknown key "maxImagBytes"`}},
		{"[{name: tools}, {name: attachment-local, config: {maxImageBytes: -1}}]", []string{`entry "attachment-local"`, "maxImageBytes must be a positive integer"}},
		{"[{name: tools}, {name: attachment-local, config: {imageCompressionConcurrency: 0}}]", []string{`entry "attachment-local"`, "imageCompressionConcurrency"}},
		{"[{name: tools}, {name: model-catalog, config: {defaultModel: nope}}]", []string{`entry "model-catalog"`, `defaultModel "nope" is not one of models`}},
		{"[{name: tools}, {name: model-catalog, config: {models: [{id: a}, {id: a}], defaultModel: a}}]", []string{`entry "model-catalog"`, `models[1].id "a" duplicates models[0]`}},
		{"[{name: tools}, {name: sandbox-policy, config: {mode: yolo}}]", []string{`entry "sandbox-policy"`, `mode must be one of "read-only", "workspace-write" or "danger-full-access" (got "yolo")`}},
		{"[{name: tools}, {name: sandbox-policy, config: {mod: read-only}}]", []string{`entry "sandbox-policy"`, `unknown key "mod"`}},
		{"[{name: tools}, {name: sandbox-policy}, {name: fs-sandbox, config: {protectedPaths: [../x]}}]", []string{`entry "fs-sandbox"`, `protectedPaths[0] must be a clean relative path inside the writable root, got "../x"`}},
		{"[{name: tools}, {name: sandbox-policy}, {name: fs-sandbox, config: {diffBasisMaxBytes: -5}}]", []string{`entry "fs-sandbox"`, "diffBasisMaxBytes must be a positive safe integer"}},
		{"[{name: tools}, {name: fs-sandbox}]", []string{`entry "fs-sandbox"`, "missing sandboxPolicy"}},
		{"[{name: tools}, {name: user-approval, config: {policy: sometimes}}]", []string{`entry "user-approval"`, `approval policy must be one of "ask" or "never"`}},
		{"[{name: fs-local}, {name: sandbox-policy}, {name: fs-sandbox}, {name: tools}, {name: tool-fs}]", []string{`entry "fs-sandbox"`, `service "fs" has been registered at fs-local`}},
		{"[{name: sandbox-policy}, {name: fs-sandbox}, {name: fs-local}, {name: tools}, {name: tool-fs}]", []string{`entry "fs-local"`, `service "fs" has been registered at fs-sandbox`}},
	} {
		t.Run(tc.yaml, func(t *testing.T) {
			cfg := filepath.Join(dir, fmt.Sprintf("c%d.yaml", i))
			writeFile(t, cfg, "plugins: "+tc.yaml+"\n")
			for _, cmd := range []string{"serve", "run", "config"} {
				out, stderr, code := runHarness(t, "", cmd, "--config", cfg, "--log-level", "error")
				assert.Equal(t, 1, code, "%s: %s", cmd, stderr)
				assert.Empty(t, out, "nothing on stdout")
				last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
				assert.True(t, strings.HasPrefix(stderr, "harness: ") || strings.Contains(stderr, "\nharness: "), stderr)
				for _, w := range tc.want {
					assert.Contains(t, stderr, w, "%s: %s", cmd, last)
				}
			}
		})
	}
}

// --profile and --approve: an unknown profile names the known ones (exit 1); --approve takes exactly
// allow-once or reject, for run only (usage error, exit 2).
func TestProfileAndApproveFlags(t *testing.T) {
	_, stderr, code := runHarness(t, "", "run", "--profile", "nope")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, `--profile: unknown profile "nope" (known: default, sandboxed, unconfined)`)
	for _, bad := range []string{"Allow-Once", "allow", "allow-always", " reject", "yes"} {
		_, stderr, code := runHarness(t, "", "run", "--approve", bad)
		assert.Equal(t, 2, code, "%q: %s", bad, stderr)
		assert.Contains(t, stderr, fmt.Sprintf("--approve must be allow-once or reject (got %q)", bad))
	}
	for _, cmd := range []string{"serve", "tools", "config"} {
		_, stderr, code := runHarness(t, "", cmd, "--approve", "reject")
		assert.Equal(t, 2, code, "%s: %s", cmd, stderr)
		assert.Contains(t, stderr, "flag provided but not defined: -approve")
	}
	for _, ok := range []string{"allow-once", "reject"} {
		_, stderr, code := runHarness(t, "", "run", "--profile", "sandboxed", "--approve", ok, "--cwd", realTemp(t))
		assert.Equal(t, 0, code, "%s: %s", ok, stderr)
	}
}
