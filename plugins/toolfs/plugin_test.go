package toolfs_test

import (
	"encoding/json"
	"testing"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	readSchema  = `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to read. Absolute, or relative to the session's working directory."},"offset":{"type":"number","description":"1-based first line to return. Defaults to 1."},"limit":{"type":"number","description":"Maximum number of lines to return. Defaults to 2000."}},"required":["file_path"]}`
	writeSchema = `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to write. Absolute, or relative to the session's working directory."},"content":{"type":"string","description":"Full UTF-8 text content to write."}},"required":["file_path","content"]}`
	editSchema  = `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to edit. Absolute, or relative to the session's working directory."},"old_string":{"type":"string","description":"Literal text to replace. Must match exactly."},"new_string":{"type":"string","description":"Literal replacement text. Use an empty string to delete the match."},"replace_all":{"type":"boolean","description":"Replace all matches. Defaults to false; when false, old_string must appear exactly once."}},"required":["file_path","old_string","new_string"]}`
)

// The guidance sections, from texts.json.
var (
	readGuidance  = golden("read.guidance")
	writeGuidance = golden("write.guidance.with_edit")
	editGuidance  = golden("edit.guidance")
)

func TestSchemasExact(t *testing.T) {
	e := newEnv(t, envOptions{})
	schemas := e.rt.Schemas()
	require.Len(t, schemas, 3)
	want := []struct{ name, description, params string }{
		{"read", description(t, "read"), readSchema},
		{"write", description(t, "write"), writeSchema},
		{"edit", description(t, "edit"), editSchema},
	}
	for i, w := range want {
		assert.Equal(t, w.name, schemas[i].Name)
		assert.Equal(t, w.description, schemas[i].Description)
		assert.Equal(t, w.params, string(schemas[i].Parameters), "byte-for-byte, property order kept")
	}

	cfg := toolfs.DefaultConfig()
	cfg.ReadLimit = 2
	small := newEnv(t, envOptions{config: &cfg})
	assert.Contains(t, string(small.rt.Schemas()[0].Parameters), `"description":"Maximum number of lines to return. Defaults to 2."`)
}

func TestConcurrencySafety(t *testing.T) {
	e := newEnv(t, envOptions{})
	assert.True(t, e.rt.ConcurrencySafe("read", json.RawMessage(`{"file_path":"a.txt"}`)))
	assert.False(t, e.rt.ConcurrencySafe("write", json.RawMessage(`{"file_path":"a.txt","content":"x"}`)))
	assert.False(t, e.rt.ConcurrencySafe("edit", json.RawMessage(`{"file_path":"a.txt","old_string":"x","new_string":"y"}`)))
}

func TestGuidance(t *testing.T) {
	e := newEnv(t, envOptions{})
	sections := e.rt.GuidanceSections()
	require.Equal(t, []tools.GuidanceSection{
		{Name: "tool:read", Order: 100, Text: readGuidance},
		{Name: "tool:write", Order: 101, Text: writeGuidance},
		{Name: "tool:edit", Order: 102, Text: editGuidance},
	}, sections)
	assert.Equal(t, readGuidance+"\n\n"+writeGuidance+"\n\n"+editGuidance, e.rt.Guidance())
}

// TestGuidanceFollowsVisibility re-registers the write definition alone (through a probe plugin)
// to see its section render without edit.
func TestGuidanceFollowsVisibility(t *testing.T) {
	e := newEnv(t, envOptions{})
	write, ok := e.rt.Get("write")
	require.True(t, ok)
	kerneltest.RequireDispose(t, e.toolFs)
	assert.Empty(t, e.rt.Schemas())
	assert.Empty(t, e.rt.GuidanceSections())

	probe := kernel.Module{ID: "write-only", Inject: []kernel.Dep{tools.Service.Dep()}, Apply: func(kc *kernel.Context, _ any) error {
		_, err := tools.Service.Must(kc).Register(kc, write)
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, probe, nil))
	assert.Equal(t, []tools.GuidanceSection{{Name: "tool:write", Order: 101,
		Text: golden("write.guidance")}},
		e.rt.GuidanceSections())
}

func TestPendingWithoutFilesystem(t *testing.T) {
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	f := kerneltest.RequireLoad(t, root, toolfs.Plugin, nil)
	kerneltest.RequirePending(t, f)
	rt, ok := tools.Service.Get(root)
	require.True(t, ok)
	assert.Empty(t, rt.Schemas())
}

func TestConfigValidation(t *testing.T) {
	cases := []struct {
		mutate func(c *toolfs.Config)
		want   string
	}{
		{func(c *toolfs.Config) { c.ReadLimit = 0 }, "tool-fs: readLimit must be a positive integer"},
		{func(c *toolfs.Config) { c.ReadMaxLineLength = -1 }, "tool-fs: readMaxLineLength must be a positive integer"},
		{func(c *toolfs.Config) { c.ReadMaxBytes = -2 }, "tool-fs: readMaxBytes must be a positive integer"},
		{func(c *toolfs.Config) { c.ReadStreamMinSize = 0 }, "tool-fs: readStreamMinSize must be a positive integer"},
		{func(c *toolfs.Config) { c.ReadLimit, c.ReadMaxBytes = 0, 0 }, "tool-fs: readLimit must be a positive integer"},
		{func(c *toolfs.Config) { c.ResultBudget = 0 }, "tool-fs: resultBudget must be a positive integer"},
		{func(c *toolfs.Config) { c.ResultBudgetByClient["codex"] = -1 }, `tool-fs: resultBudgetByClient["codex"] must be a positive integer`},
		{func(c *toolfs.Config) { c.ResultBudgetByClient[""] = 100 }, "tool-fs: resultBudgetByClient keys must be non-empty client names"},
	}
	for _, tc := range cases {
		cfg := toolfs.DefaultConfig()
		tc.mutate(&cfg)
		err := cfg.Validate()
		require.Error(t, err)
		assert.Equal(t, tc.want, err.Error())
	}
	def := toolfs.DefaultConfig()
	require.NoError(t, def.Validate())
	assert.Equal(t, toolfs.Config{ReadLimit: 2000, ReadMaxLineLength: 2000, ReadMaxBytes: 51200, ReadStreamMinSize: 10485760,
		ResultBudget: 36000, ResultBudgetByClient: map[string]confint.Int{"claude-code": 48000}}, def)
}

func TestInvalidConfigFailsLoad(t *testing.T) {
	root, _, _ := newBase(t, true)
	cfg := toolfs.DefaultConfig()
	cfg.ReadMaxBytes = 0
	f, err := root.Load(toolfs.Plugin, cfg)
	if err == nil {
		kerneltest.RequireFailed(t, f)
		err = f.Err()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tool-fs: readMaxBytes must be a positive integer")
	rt, _ := tools.Service.Get(root)
	assert.Empty(t, rt.Schemas())
}
