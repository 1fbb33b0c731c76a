package loader_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/loader"
)

func TestParseDesignComposition(t *testing.T) {
	entries := parse(t, `plugins:
  - id: fs
    name: fs-local
    config: { cwd: . }
  - name: fs-observation-policy
  - name: tools
  - name: tool-fs
    config: { readLimit: 2000 }
  - name: attachment-local
    disabled: false
`)
	require.Len(t, entries, 5)
	require.Equal(t, "fs", entries[0].ID)
	require.Equal(t, "fs-local", entries[0].Name)
	require.Equal(t, "", entries[1].ID, "Parse keeps missing ids missing; Apply and Dump resolve them")
	require.Equal(t, 4, entries[0].Config.Line, "config keeps its source position")
	require.False(t, entries[4].Disabled)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		is   error
	}{
		{"unknown top-level key", "plugins: []\nextra: 1\n",
			`composition: line 2: unknown key "extra" in composition (known keys: plugins)`, loader.ErrUnknownKey},
		{"unknown entry key names the entry", "plugins:\n  - id: fs\n    name: fs-local\n    confg: {}\n",
			`entry "fs" (fs-local): line 4: unknown key "confg" in entry (known keys: id, name, disabled, config)`, loader.ErrUnknownKey},
		{"entry without id is named by position", "plugins:\n  - name: a\n  - name: b\n    bogus: 1\n",
			`entry #2 (b): line 4: unknown key "bogus" in entry (known keys: id, name, disabled, config)`, loader.ErrUnknownKey},
		{"missing name", "plugins:\n  - id: x\n",
			`entry "x": line 2: name is required`, nil},
		{"empty name", "plugins:\n  - name: ''\n",
			`entry #1: line 2: name must be a non-empty string`, nil},
		{"disabled not a bool", "plugins:\n  - name: a\n    disabled: maybe\n",
			`entry #1 (a): line 3: disabled must be true or false`, nil},
		{"key given twice", "plugins:\n  - name: a\n    name: b\n",
			`entry #1 (b): line 3: key "name" given twice`, nil},
		{"entry not a mapping", "plugins:\n  - fs-local\n",
			`entry #1: line 2: an entry must be a mapping`, nil},
		{"plugins not a list", "plugins: {a: 1}\n",
			"composition: line 1: cannot unmarshal !!map into []yaml.Node", nil},
		{"two documents", "plugins: []\n---\nplugins: []\n",
			"composition: more than one YAML document", nil},
		{"yaml syntax", "plugins: [\n",
			"composition: yaml: line 1: did not find expected node content", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loader.Parse([]byte(tt.src))
			require.EqualError(t, err, tt.want)
			if tt.is != nil {
				require.ErrorIs(t, err, tt.is)
			}
		})
	}
}

func TestParseReportsEveryBadEntry(t *testing.T) {
	_, err := loader.Parse([]byte("plugins:\n  - name: a\n    x: 1\n  - name: b\n    y: 2\n"))
	var ee *loader.EntryError
	require.ErrorAs(t, err, &ee)
	require.Contains(t, err.Error(), `entry #1 (a): line 3: unknown key "x"`)
	require.Contains(t, err.Error(), `entry #2 (b): line 5: unknown key "y"`)
}

func TestParseEmptyInputIsEmptyComposition(t *testing.T) {
	for _, src := range []string{"", "plugins: []\n", "plugins:\n"} {
		entries, err := loader.Parse([]byte(src))
		require.NoError(t, err, "%q", src)
		require.Empty(t, entries, "%q", src)
	}
}

func TestParseFollowsAliases(t *testing.T) {
	entries := parse(t, "plugins:\n  - &e {name: a, config: &c {greeting: hi}}\n  - *e\n  - {name: b, config: *c}\n")
	require.Len(t, entries, 3)
	require.Equal(t, "a", entries[1].Name)
	require.Equal(t, "b", entries[2].Name)
	out, err := loader.Dump(entries)
	require.NoError(t, err)
	require.Equal(t, `plugins:
  - id: a
    name: a
    config: {greeting: hi}
  - id: a#2
    name: a
    config: {greeting: hi}
  - id: b
    name: b
    config: {greeting: hi}
`, string(out))
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"plugins:\n  - id: fs\n    name: fs-local\n    config: { cwd: . }\n",
		"plugins:\n  - name: a\n    disabled: true\n",
		"plugins: [{name: a, config: &x {k: 1}}, {name: b, config: *x}]\n",
		"plugins:\n  - x\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := loader.Parse(data)
		if err != nil {
			return
		}
		out, err := loader.Dump(entries)
		if err != nil {
			var ee *loader.EntryError
			if !errors.As(err, &ee) {
				t.Fatalf("Dump failed without naming an entry: %v", err)
			}
			return
		}
		again, err := loader.Parse(out)
		if err != nil {
			t.Fatalf("Dump output does not parse: %v\n%s", err, out)
		}
		if len(again) != len(entries) {
			t.Fatalf("round trip changed the entry count: %d -> %d", len(entries), len(again))
		}
	})
}
