package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestRegistrationIsRemovedWithTheRegisteringPlugin(t *testing.T) {
	e := newEnv(t)
	changes := 0
	_, err := tools.Change.On(e.root, func(context.Context, struct{}) error { changes++; return nil })
	require.NoError(t, err)
	d := echo()
	d.Guidance = tools.StaticGuidance(100, "Use echo.")
	f := e.load(t, d)
	require.Len(t, e.rt.Schemas(), 1)
	require.Equal(t, "Use echo.", e.rt.Guidance())
	require.Equal(t, 1, changes)

	kerneltest.RequireDispose(t, f)
	require.Empty(t, e.rt.Schemas())
	require.Empty(t, e.rt.Guidance())
	require.Equal(t, 2, changes)
	require.Equal(t, "UNKNOWN_TOOL", e.exec("echo", json.RawMessage(`{"text":"x"}`)).Code())
}

func TestRegisterDisposerRemovesEarlyAndIsIdempotent(t *testing.T) {
	e := newEnv(t)
	dispose, err := e.rt.Register(e.root, echo())
	require.NoError(t, err)
	require.NoError(t, dispose())
	require.NoError(t, dispose())
	_, found := e.rt.Get("echo")
	require.False(t, found)
	_, err = e.rt.Register(e.root, echo())
	require.NoError(t, err, "the name is free again")
}

func TestRegisterRejects(t *testing.T) {
	valid := echo()
	cases := []struct {
		name string
		mut  func(d *tools.Definition)
		want string
	}{
		{"duplicate name", func(*tools.Definition) {}, `tool "echo" is already registered`},
		{"empty name", func(d *tools.Definition) { d.Name = "" }, "tool name must be a non-empty string"},
		{"no render", func(d *tools.Definition) { t := echoTool(); t.Name, t.Render = "x", nil; *d = t.Definition() },
			`tool "x" must declare output { schema, render, presentationMeta? }`},
		{"no execute", func(d *tools.Definition) { t := echoTool(); t.Name, t.Execute = "x", nil; *d = t.Definition() },
			`tool "x" must declare execute`},
		{"no body", func(d *tools.Definition) { *d = tools.Definition{Name: "x"} }, `tool "x" must declare execute`},
		{"non-object parameters", func(d *tools.Definition) { d.Name = "x"; d.Parameters = json.RawMessage(`{"type":"string"}`) },
			`unsupported JSON schema: schema.type must be "object" (tool parameters are object-rooted)`},
		{"unsupported keyword", func(d *tools.Definition) {
			d.Name = "x"
			d.Parameters = json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","minimum":1}}}`)
		}, "unsupported JSON schema: schema.properties.n.minimum is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)"},
		{"bad enum", func(d *tools.Definition) {
			d.Name = "x"
			d.Parameters = json.RawMessage(`{"type":"object","properties":{"m":{"type":"string","enum":[1]}}}`)
		}, "unsupported JSON schema: schema.properties.m.enum must be a non-empty array of string values"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.rt.Register(e.root, valid)
			require.NoError(t, err)
			d := echo()
			tc.mut(&d)
			_, err = e.rt.Register(e.root, d)
			require.EqualError(t, err, tc.want)
		})
	}
}

func TestUnsupportedSchemaErrorIsCoded(t *testing.T) {
	e := newEnv(t)
	d := echo()
	d.Parameters = json.RawMessage(`{"type":"object","properties":{"a":{"type":"bogus"}}}`)
	_, err := e.rt.Register(e.root, d)
	require.ErrorIs(t, err, tools.ErrUnsupportedSchema)
	var te *tools.Error
	require.ErrorAs(t, err, &te)
	require.Equal(t, []string{"schema.properties.a.type must be one of object/array/string/number/integer/boolean/null"}, te.Violations())
}

func TestSchemasKeepRegistrationOrderAndBytes(t *testing.T) {
	e := newEnv(t)
	params := `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}},"required":["z"]}`
	var defs []tools.Definition
	for _, n := range []string{"read", "write", "edit"} {
		d := tool(n, ok("x"))
		d.Description = n + " things"
		d.Parameters = json.RawMessage(params)
		defs = append(defs, d)
	}
	e.load(t, defs...)
	got := e.rt.Schemas()
	require.Len(t, got, 3)
	for i, n := range []string{"read", "write", "edit"} {
		require.Equal(t, n, got[i].Name)
		require.Equal(t, n+" things", got[i].Description)
		require.Equal(t, params, string(got[i].Parameters))
	}
	b, err := json.Marshal(got[0])
	require.NoError(t, err)
	require.Equal(t, `{"name":"read","description":"read things","parameters":`+params+`}`, string(b))
	require.Len(t, e.rt.List(), 3)
	def, found := e.rt.Get("write")
	require.True(t, found)
	require.Equal(t, "write things", def.Description)
}

// No name is reserved: run_code, once kept for a code runtime this build does not have, registers
// and runs like any other.
func TestNoReservedName(t *testing.T) {
	e := newEnv(t)
	e.load(t, tool("run_code", ok("x")))
	require.Equal(t, "run_code", e.rt.Schemas()[0].Name)
	require.False(t, e.exec("run_code", json.RawMessage(`{}`)).IsError)
}

func TestDefaultParametersAreAnEmptyObject(t *testing.T) {
	e := newEnv(t)
	e.load(t, tool("t", ok("x")))
	require.JSONEq(t, `{"type":"object","properties":{}}`, string(e.rt.Schemas()[0].Parameters))
	require.False(t, e.exec("t", json.RawMessage(`{"anything":1}`)).IsError)
}

func TestGuidanceRendersOnlyVisibleTools(t *testing.T) {
	e := newEnv(t)
	write := tool("write", ok("x"))
	write.Guidance = &tools.Guidance{Order: 101, Text: func(visible func(string) bool) string {
		if visible("edit") {
			return "Use write; prefer edit."
		}
		return "Use write."
	}}
	read := tool("read", ok("x"))
	read.Guidance = tools.StaticGuidance(100, "Use read.")
	edit := tool("edit", ok("x"))
	edit.Guidance = tools.StaticGuidance(102, "Use edit.")
	silent := tool("silent", ok("x"))
	silent.Guidance = tools.StaticGuidance(50, "")

	e.load(t, write, silent, read)
	require.Equal(t, []tools.GuidanceSection{
		{Name: "tool:read", Order: 100, Text: "Use read."},
		{Name: "tool:write", Order: 101, Text: "Use write."},
	}, e.rt.GuidanceSections())

	editDispose, err := e.rt.Register(e.root, edit)
	require.NoError(t, err)
	require.Equal(t, "Use read.\n\nUse write; prefer edit.\n\nUse edit.", e.rt.Guidance())
	require.NoError(t, editDispose())
	require.Equal(t, "Use read.\n\nUse write.", e.rt.Guidance())
}

func TestConcurrencySafe(t *testing.T) {
	e := newEnv(t)
	read := echoTool()
	read.Name = "read"
	read.ConcurrencySafe = func(echoArgs) bool { return true }
	write := echo()
	write.Name = "write"
	panicky := echoTool()
	panicky.Name = "panicky"
	panicky.ConcurrencySafe = func(echoArgs) bool { panic("no") }
	e.load(t, read.Definition(), write, panicky.Definition())

	valid := json.RawMessage(`{"text":"x"}`)
	require.True(t, e.rt.ConcurrencySafe("read", valid))
	require.False(t, e.rt.ConcurrencySafe("read", json.RawMessage(`{"text":1}`)), "schema-invalid args are exclusive")
	require.False(t, e.rt.ConcurrencySafe("write", valid), "undeclared is exclusive")
	require.False(t, e.rt.ConcurrencySafe("panicky", valid))
	require.False(t, e.rt.ConcurrencySafe("missing", valid))
}

func TestConcurrentExecuteAndRegister(t *testing.T) {
	e := newEnv(t)
	e.load(t, echo())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			d := tool("churn", ok("x"))
			dispose, err := e.rt.Register(e.root, d)
			if err == nil {
				_ = dispose()
			}
		}
	}()
	for range 50 {
		require.Equal(t, "hi", e.exec("echo", json.RawMessage(`{"text":"hi"}`)).Text())
		_ = e.rt.Schemas()
	}
	<-done
}
