package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var stdioTable = setting{path: []string{"mcp_servers", "cordon"},
	value: []tomlKey{{"command", "/opt/bin/harness"}, {"args", []string{"serve"}}}}

const stdioTOML = "[mcp_servers.cordon]\ncommand = \"/opt/bin/harness\"\nargs = [\"serve\"]\n"

// The TOML writer appends the table to a file without it, keeping every byte of the rest.
func TestMergeTOMLAppends(t *testing.T) {
	for _, old := range []string{
		"",
		"model = \"o3\"\n",
		"model = \"o3\" # comment\n\n[mcp_servers.other]\ncommand = \"x\"\n",
		"no_newline = true",
		"a = 1\r\n[b]\r\nc = 2\r\n",
	} {
		got, changed, err := mergeTOML([]byte(old), []setting{stdioTable})
		require.NoError(t, err, old)
		assert.True(t, changed)
		assert.True(t, strings.HasPrefix(string(got), old), "the rest kept byte for byte: %q", got)
		table := stdioTOML
		if strings.Contains(old, "\r\n") {
			table = strings.ReplaceAll(table, "\n", "\r\n")
		}
		assert.True(t, strings.HasSuffix(string(got), table), "%q", got)
		again, changed, err := mergeTOML(got, []setting{stdioTable})
		require.NoError(t, err)
		assert.False(t, changed, "idempotent: %q", got)
		assert.Equal(t, string(got), string(again))
	}
}

// A table already there gets the transport keys replaced in place; its other keys, the comments
// and the tables around it are kept byte for byte.
func TestMergeTOMLReplacesTheTransportKeys(t *testing.T) {
	old := "# my config\nmodel = \"o3\"\n\n[mcp_servers.cordon]\n# the harness\ncommand = \"/old/harness\"\nargs = [\n  \"serve\",\n  \"--cwd\", \"/x\",\n]\nstartup_timeout_sec = 30\n\n[mcp_servers.cordon.env]\nK = \"v\"\n\n[tui]\nx = '''\n[not a table]\n'''\n"
	want := "# my config\nmodel = \"o3\"\n\n[mcp_servers.cordon]\n# the harness\ncommand = \"/opt/bin/harness\"\nargs = [\"serve\"]\nstartup_timeout_sec = 30\n\n[mcp_servers.cordon.env]\nK = \"v\"\n\n[tui]\nx = '''\n[not a table]\n'''\n"
	got, changed, err := mergeTOML([]byte(old), []setting{stdioTable})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, want, string(got))
	_, changed, err = mergeTOML(got, []setting{stdioTable})
	require.NoError(t, err)
	assert.False(t, changed)

	// From stdio to HTTP: command and args go, url and the header come.
	httpTable := setting{path: stdioTable.path, value: []tomlKey{{"url", "http://127.0.0.1:8931/mcp"},
		{"http_headers", map[string]string{"Authorization": "Bearer t\"k"}}}}
	got, _, err = mergeTOML([]byte("[mcp_servers.\"cordon\"]\ncommand = \"/x\"\nargs = [\"serve\"]\nenabled = true\n"), []setting{httpTable})
	require.NoError(t, err)
	assert.Equal(t, "[mcp_servers.\"cordon\"]\nurl = \"http://127.0.0.1:8931/mcp\"\nhttp_headers = { Authorization = \"Bearer t\\\"k\" }\nenabled = true\n", string(got))
}

// A server defined another way (an inline table, a dotted key, an array of tables) is not
// rewritten: the error says to set it by hand, and nothing is returned to write.
func TestMergeTOMLRefusesOtherForms(t *testing.T) {
	for _, old := range []string{
		"mcp_servers = { cordon = { command = \"x\" } }\n",
		"[mcp_servers]\ncordon = { command = \"x\" }\n",
		"mcp_servers.cordon.command = \"x\"\n",
		"[[mcp_servers.cordon]]\ncommand = \"x\"\n",
	} {
		got, _, err := mergeTOML([]byte(old), []setting{stdioTable})
		require.Error(t, err, old)
		assert.Contains(t, err.Error(), "by hand")
		assert.Nil(t, got)
	}
}

func TestTOMLString(t *testing.T) {
	assert.Equal(t, `"C:\\bin\\h \"x\"\n\u001F"`, tomlString("C:\\bin\\h \"x\"\n\x1f"))
	assert.Equal(t, `{ "a b" = "1", c = "2" }`, tomlValue(map[string]string{"c": "2", "a b": "1"}))
}

// The JSON merge keeps the other keys and their order, adds the entry, unions a list, and is
// idempotent; comments (JSONC) and a non-object where an object belongs are refused.
func TestMergeJSON(t *testing.T) {
	old := `{"zeta": 1, "mcpServers": {"other": {"command": "x", "n": 1.50}}, "permissions": {"deny": ["Bash(rm:*)", "Read"]}, "alpha": [1,2]}`
	sets := []setting{
		{path: []string{"mcpServers", "cordon"}, value: obj{{"type", "stdio"}, {"command", "/opt/h"}, {"args", strs("serve")}}},
		{path: []string{"permissions", "deny"}, value: strs("Read", "Write"), list: true},
	}
	got, changed, err := mergeJSON([]byte(old), sets)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, `{
  "zeta": 1,
  "mcpServers": {
    "other": {
      "command": "x",
      "n": 1.50
    },
    "cordon": {
      "type": "stdio",
      "command": "/opt/h",
      "args": [
        "serve"
      ]
    }
  },
  "permissions": {
    "deny": [
      "Bash(rm:*)",
      "Read",
      "Write"
    ]
  },
  "alpha": [
    1,
    2
  ]
}
`, string(got))
	again, changed, err := mergeJSON(got, sets)
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Equal(t, string(got), string(again))

	// The same entry with its keys in another order is the same entry.
	_, changed, err = mergeJSON([]byte(`{"mcpServers": {"cordon": {"args": ["serve"], "command": "/opt/h", "type": "stdio"}}}`), sets[:1])
	require.NoError(t, err)
	assert.False(t, changed)

	for _, bad := range []string{"{\n // comment\n}", `{"mcpServers": []}`, `[1]`, `{"a": 1} x`} {
		_, _, err := mergeJSON([]byte(bad), sets[:1])
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "by hand", bad)
	}
}

func FuzzMergeTOML(f *testing.F) {
	f.Add("[mcp_servers.cordon]\ncommand = \"x\"\n")
	f.Add("a = '''\n[mcp_servers.cordon]\n'''\n")
	f.Add("[x]\ny = [\n1,\n]\n")
	f.Fuzz(func(t *testing.T, old string) {
		got, changed, err := mergeTOML([]byte(old), []setting{stdioTable})
		if err != nil {
			return
		}
		if !changed {
			assert.Equal(t, old, string(got))
		}
		again, changed2, err := mergeTOML(got, []setting{stdioTable})
		require.NoError(t, err, "%q", got)
		assert.False(t, changed2, "idempotent: %q -> %q -> %q", old, got, again)
	})
}
