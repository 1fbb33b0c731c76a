package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

func TestToolsCommand(t *testing.T) {
	out, stderr, code := runHarness(t, "", "tools", "--cwd", realTemp(t))
	require.Equal(t, 0, code, stderr)
	var tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations map[string]any  `json:"annotations"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &tools), out)
	require.Len(t, tools, 9)
	// Each tool's description, from the texts file of its plugin (the one place it is written).
	description := func(plugin, tool string, pairs ...string) string {
		return texts.MustLoad("../../plugins/"+plugin+"/texts.json").MustRender(tool+".description", pairs...)
	}
	want := map[string]string{
		"read":          description("toolfs", "read"),
		"write":         description("toolfs", "write"),
		"edit":          description("toolfs", "edit"),
		"read_image":    description("toolfs", "read_image"),
		"glob":          description("toolfssearch", "glob", "max", "100"),
		"grep":          description("toolfssearch", "grep", "max", "250"),
		"apply_patch":   description("toolapplypatch", "apply_patch", "path_rule", filetool.PathRule),
		"notebook_edit": description("toolnotebook", "notebook_edit"),
		"undo":          description("fshistory/history", "undo"),
	}
	for _, tool := range tools {
		assert.Equal(t, want[tool.Name], tool.Description)
		assert.JSONEq(t, wantSchema(tool.Name, true), string(tool.InputSchema), "the default composition confines")
		assert.Equal(t, tool.Name == "read" || tool.Name == "read_image" || tool.Name == "glob" || tool.Name == "grep", tool.Annotations["readOnlyHint"], tool.Name)
	}
	assert.Equal(t, []string{"read", "write", "edit", "glob", "grep", "apply_patch", "notebook_edit", "read_image", "undo"}, []string{tools[0].Name, tools[1].Name, tools[2].Name, tools[3].Name, tools[4].Name, tools[5].Name, tools[6].Name, tools[7].Name, tools[8].Name},
		"harness tools keeps registration order")
	assert.NotContains(t, out, `"outputSchema"`, "no output schemas without --structured-content")

	out, stderr, code = runHarness(t, "", "tools", "--cwd", realTemp(t), "--structured-content")
	require.Equal(t, 0, code, stderr)
	var structured []struct {
		Name         string         `json:"name"`
		OutputSchema map[string]any `json:"outputSchema"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &structured), out)
	require.Len(t, structured, len(tools))
	for _, tool := range structured {
		assert.Equal(t, "object", tool.OutputSchema["type"], tool.Name)
	}
}

func TestPluginsCommand(t *testing.T) {
	out, stderr, code := runHarness(t, "", "plugins")
	require.Equal(t, 0, code, stderr)
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		ids = append(ids, strings.Fields(line)[0])
	}
	for _, id := range []string{"fs-local", "fs-observation-policy", "tools", "tool-fs"} {
		assert.Contains(t, ids, id)
	}
	assert.Regexp(t, `(?m)^tool-fs\s+needs: .*tools`, out)
}

func TestConfigCommand(t *testing.T) {
	dir := realTemp(t)
	out, stderr, code := runHarness(t, "", "config", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	want := "# profile default\nplugins:\n" +
		"  - id: sandbox-policy # active\n    name: sandbox-policy\n    config: {mode: workspace-write, reads: roots, tempRoots: false, workspaceRoot: " + dir + ", readOnlyRoots: [SPILL]}\n" +
		"  - id: fs-sandbox # active\n    name: fs-sandbox\n    config:\n      cwd: " + dir + "\n" +
		"  - id: fs-observation-policy # active\n    name: fs-observation-policy\n" +
		"  - id: tools # active\n    name: tools\n" +
		"  - id: tool-fs # active\n    name: tool-fs\n" +
		"  - id: tool-fs-search # active\n    name: tool-fs-search\n" +
		"  - id: tool-apply-patch # active\n    name: tool-apply-patch\n" +
		"  - id: tool-notebook # active\n    name: tool-notebook\n" +
		"  - id: attachment-local # active\n    name: attachment-local\n" +
		"  - id: model-catalog # active\n    name: model-catalog\n" +
		"  - id: user-approval # active\n    name: user-approval\n" +
		"  - id: fs-history # active\n    name: fs-history\n" +
		"  - id: lsp-diagnostics # active\n    name: lsp-diagnostics\n"
	assert.Equal(t, want, spillDirOf(t, out))

	out, stderr, code = runHarness(t, "", "config", "--config", bareConfig(t, dir))
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, "fs-observation-policy")
	assert.Contains(t, out, "id: tool-fs # active")
}

func TestBadCompositionFailsAtStart(t *testing.T) {
	dir := realTemp(t)
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown config key", "plugins:\n  - name: fs-local\n    config: { cwdd: x }\n", []string{`entry "fs-local"`, `unknown key "cwdd"`}},
		{"bad value", "plugins:\n  - name: tools\n  - name: tool-fs\n    config: { readLimit: 0 }\n  - name: fs-local\n", []string{`entry "tool-fs"`, "readLimit must be a positive integer"}},
		{"unknown plugin", "plugins:\n  - name: fs-lokal\n", []string{`entry "fs-lokal"`, "unknown module"}},
		{"missing dependency", "plugins:\n  - name: fs-local\n  - name: tool-fs\n", []string{`tool-fs`, "tools"}},
		{"unknown entry key", "plugins:\n  - name: tools\n    confg: {}\n", []string{`confg`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".yaml")
			writeFile(t, cfg, tt.yaml)
			for _, cmd := range []string{"serve", "run", "config", "tools"} {
				out, stderr, code := runHarness(t, "", cmd, "--config", cfg)
				assert.Equal(t, 1, code, "%s: %s", cmd, stderr)
				assert.Empty(t, out, "nothing on stdout")
				for _, w := range tt.want {
					assert.Contains(t, stderr, w, cmd)
				}
				assert.Contains(t, stderr, "harness: "+cfg+": ", "the message names the file")
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"serve", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"serve", "--approve", "allow-once"}, "-approve"},
		{[]string{"run", "--approve", "maybe"}, `--approve must be allow-once or reject (got "maybe")`},
		{[]string{"run", "--config", "x.yaml", "--profile", "default"}, "--config and --profile are exclusive"},
		{[]string{"serve", "extra"}, `unexpected argument "extra"`},
		{[]string{"serve", "--log-level", "loud"}, "--log-level"},
		{[]string{"serve", "--max-inflight", "-1"}, "--max-inflight must be positive"},
		{[]string{"run", "--max-inflight", "4"}, "-max-inflight"},
		{[]string{"--nope"}, "unknown flag --nope: flags follow the command (harness serve --nope)"},
		{[]string{"help", "nope"}, `help: unknown command "nope"`},
		{[]string{"version", "extra"}, `version: unexpected argument "extra"`},
		{[]string{"undo", "--any-session"}, "undo: give one PATH or CHANGE_ID"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, stderr, code := runHarness(t, "", tt.args...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, out)
			assert.Contains(t, stderr, tt.want)
			// One line for the mistake, one for where the help is: never the whole usage text.
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			require.Len(t, lines, 2, stderr)
			hint := "run 'harness help' for usage"
			if len(tt.args) > 0 && !strings.HasPrefix(tt.args[0], "-") && tt.args[0] != "help" && tt.args[0] != "bogus" {
				hint = "run 'harness help " + tt.args[0] + "' for usage"
			}
			assert.Equal(t, hint, lines[1])
		})
	}
}

func TestStartErrors(t *testing.T) {
	dir := realTemp(t)
	noTools := filepath.Join(dir, "no-tools.yaml")
	writeFile(t, noTools, "plugins:\n  - name: fs-local\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--profile", "nope"}, `--profile: unknown profile "nope" (known: default`},
		{[]string{"run", "--config", filepath.Join(dir, "missing.yaml")}, "--config: open "},
		{[]string{"serve", "--cwd", filepath.Join(dir, "missing")}, "--cwd: "},
		{[]string{"serve", "--config", noTools}, `the composition provides no tools runtime (add the "tools" plugin)`},
		{[]string{"run", "--config", noTools}, `the composition provides no tools runtime (add the "tools" plugin)`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runHarness(t, "", tt.args...)
			assert.Equal(t, 1, code, stderr)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "--help"}} {
		out, stderr, code := runHarness(t, "", args...)
		assert.Equal(t, 0, code, args)
		assert.Empty(t, stderr, args)
		assert.True(t, strings.HasPrefix(out, "usage: harness COMMAND [flags] [arguments]\n"), out)
		for _, c := range []string{"serve", "run", "tools", "plugins", "config", "history", "undo", "setup", "version", "help"} {
			assert.Contains(t, out, "\n  "+c+" ", args)
		}
	}
}

// Every command's help, by --help, -h or help COMMAND: one text on stdout, exit 0, starting with the
// command's synopsis, with examples, and its own flags only.
func TestCommandHelp(t *testing.T) {
	synopses := map[string]string{
		"serve": "usage: harness serve [flags]", "run": "usage: harness run [flags]", "tools": "usage: harness tools [flags]",
		"plugins": "usage: harness plugins [flags]", "config": "usage: harness config [flags]",
		"history": "usage: harness history [flags]", "undo": "usage: harness undo [flags] PATH|CHANGE_ID",
		"setup": "usage: harness setup [flags] CLIENT", "version": "usage: harness version", "help": "usage: harness help [COMMAND]",
	}
	for cmd, synopsis := range synopses {
		var texts []string
		runs := [][]string{{"help", cmd}, {cmd, "--help"}, {cmd, "-h"}}
		if cmd == "help" {
			runs = runs[:1] // harness help --help is the usage text
		}
		for _, args := range runs {
			out, stderr, code := runHarness(t, "", args...)
			assert.Equal(t, 0, code, "%v: %s", args, stderr)
			assert.Empty(t, stderr, args)
			assert.Equal(t, 1, strings.Count(out, "usage: "), "one help text: %v\n%s", args, out)
			assert.True(t, strings.HasPrefix(out, synopsis+"\n"), "%v:\n%s", args, out)
			assert.Regexp(t, "\nexamples:\n  .*harness ", out, args)
			texts = append(texts, out)
		}
		for _, other := range texts[1:] {
			assert.Equal(t, texts[0], other, cmd)
		}
	}
	out, _, _ := runHarness(t, "", "help", "undo")
	assert.Contains(t, out, "PATH (its newest change) or of CHANGE_ID")
	assert.NotContains(t, out, "--http", "undo's help lists undo's flags only")
	out, _, _ = runHarness(t, "", "run", "--help")
	assert.Contains(t, out, "  --approve MODE\n")
	assert.NotContains(t, out, "--structured-content")
}

// --version and version print the program's name and version on stdout, exit 0.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, stderr, code := runHarness(t, "", args...)
		assert.Equal(t, 0, code, stderr)
		assert.Regexp(t, `^harness \S+\n$`, out)
	}
}
