package loader_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// TestApplyRejectsBadConfig: strict decoding and validation fail before anything loads, with a
// message naming the entry and the key.
func TestApplyRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		is   error
	}{
		{"unknown key", "plugins:\n  - id: g\n    name: greet\n    config:\n      greeting: hi\n      foo: 1\n",
			`entry "g" (greet): config: line 6: unknown key "foo" in loader_test.greetConfig`, loader.ErrUnknownKey},
		{"unknown key in flow config, generated id", "plugins:\n  - name: greet\n    config: { foo: 1 }\n",
			`entry "greet": config: line 3: unknown key "foo" in loader_test.greetConfig`, loader.ErrUnknownKey},
		{"unknown nested key", "plugins:\n  - id: g\n    name: greet\n    config:\n      nested:\n        depht: 2\n",
			`entry "g" (greet): config: line 6: unknown key "depht" in struct { Depth int "yaml:\"depth\"" }`, loader.ErrUnknownKey},
		{"wrong type", "plugins:\n  - id: g\n    name: greet\n    config:\n      nested: {depth: deep}\n",
			"entry \"g\" (greet): config: line 5: cannot unmarshal !!str `deep` into int", nil},
		{"validate", "plugins:\n  - id: g\n    name: greet\n    config: {greeting: ''}\n",
			`entry "g" (greet): config: greeting must not be empty`, nil},
		{"config for a module without config", "plugins:\n  - id: b\n    name: bare\n    config: {x: 1}\n",
			`entry "b" (bare): config: module takes no config`, loader.ErrNoConfig},
		{"unknown module", "plugins:\n  - id: x\n    name: nope\n",
			`entry "x" (nope): unknown module`, loader.ErrUnknownModule},
		{"duplicate id", "plugins:\n  - id: x\n    name: greet\n  - id: x\n    name: bare\n",
			`entry "x" (bare): duplicate id (also the id of entry #1 (greet))`, loader.ErrDuplicateID},
		{"disabled entries are checked too", "plugins:\n  - id: g\n    name: greet\n    disabled: true\n    config: {foo: 1}\n",
			`entry "g" (greet): config: line 5: unknown key "foo" in loader_test.greetConfig`, loader.ErrUnknownKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, j := newLoader(t)
			err := l.Apply(t.Context(), parse(t, tt.src))
			require.EqualError(t, err, tt.want)
			var ee *loader.EntryError
			require.ErrorAs(t, err, &ee)
			if tt.is != nil {
				require.ErrorIs(t, err, tt.is)
			}
			require.Empty(t, j.Take(), "nothing may load when a check fails")
			require.Empty(t, l.Entries())
		})
	}
}

func TestApplyReportsEveryBadEntryAndLoadsNothing(t *testing.T) {
	l, j := newLoader(t)
	err := l.Apply(t.Context(), parse(t, `plugins:
  - name: greet
  - name: greet
    config: {bogus: 1}
  - name: missing
`))
	require.Error(t, err)
	require.Contains(t, err.Error(), `entry "greet#2" (greet): config: line 4: unknown key "bogus"`)
	require.Contains(t, err.Error(), `entry "missing": unknown module`)
	require.Empty(t, j.Take())
}

func TestApplyRejectsProgrammaticEntriesWithoutName(t *testing.T) {
	l, _ := newLoader(t)
	for _, entries := range [][]loader.Entry{{{ID: "x"}}, {{}}} {
		err := l.Apply(t.Context(), entries)
		require.ErrorIs(t, err, loader.ErrNoName)
		var ee *loader.EntryError
		require.ErrorAs(t, err, &ee)
		require.Equal(t, 0, ee.Index)
	}
	require.EqualError(t, l.Apply(t.Context(), []loader.Entry{{ID: "x"}}), `entry "x": name is required`)
	require.EqualError(t, l.Apply(t.Context(), []loader.Entry{{}}), `entry #1: name is required`)
}

func TestDecodeConfig(t *testing.T) {
	j := &kerneltest.Journal{}
	greet, _ := newCatalog(t, j).Lookup("greet")
	tests := []struct {
		name string
		src  string
		want greetConfig
	}{
		{"absent keeps defaults", "plugins:\n  - name: greet\n", greetConfig{Greeting: "hello"}},
		{"null keeps defaults", "plugins:\n  - name: greet\n    config: null\n", greetConfig{Greeting: "hello"}},
		{"partial overlays defaults", "plugins:\n  - name: greet\n    config: {nested: {depth: 3}}\n",
			greetConfig{Greeting: "hello", Nested: struct {
				Depth int `yaml:"depth"`
			}{3}}},
		{"merge keys and aliases", "plugins:\n  - name: other\n    config: &base {greeting: hi}\n  - name: greet\n    config:\n      <<: *base\n      fail: true\n",
			greetConfig{Greeting: "hi", Fail: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries := parse(t, tt.src)
			cfg, err := loader.DecodeConfig(greet, &entries[len(entries)-1].Config)
			require.NoError(t, err)
			require.Equal(t, &tt.want, cfg)
		})
	}
}

func TestDecodeConfigWithoutNewConfig(t *testing.T) {
	m := kernel.Module{ID: "bare", Apply: func(*kernel.Context, any) error { return nil }}
	entries := parse(t, "plugins:\n  - name: bare\n    config: null\n")
	cfg, err := loader.DecodeConfig(m, &entries[0].Config)
	require.NoError(t, err)
	require.Nil(t, cfg)
	entries = parse(t, "plugins:\n  - name: bare\n    config: [1]\n")
	_, err = loader.DecodeConfig(m, &entries[0].Config)
	require.True(t, errors.Is(err, loader.ErrNoConfig))
}

// TestApplyProgrammaticConfig: a config built with yaml.Node.Encode has no source lines; errors
// then carry none.
func TestApplyProgrammaticConfig(t *testing.T) {
	l, j := newLoader(t)
	e := loader.Entry{Name: "greet"}
	require.NoError(t, e.Config.Encode(map[string]any{"greeting": "hey"}))
	require.NoError(t, l.Apply(t.Context(), []loader.Entry{e}))
	require.Equal(t, []string{"apply greet hey"}, j.Take())

	bad := loader.Entry{Name: "greet"}
	require.NoError(t, bad.Config.Encode(map[string]any{"foo": 1}))
	require.EqualError(t, l.Apply(t.Context(), []loader.Entry{bad}),
		`entry "greet": config: unknown key "foo" in loader_test.greetConfig`)
}
