package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// glob and grep through the real binary, in both embedded profiles: one result line per call, the
// texts of docs/search.md, newest first, ignore rules, spill files under $XDG_STATE_HOME.
func TestRunGlobAndGrep(t *testing.T) {
	for _, profile := range []string{"default", "sandboxed"} {
		dir := realTemp(t)
		state := realTemp(t)
		t.Setenv("XDG_STATE_HOME", state)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
		files := map[string]string{".gitignore": "*.log\n", "a.go": "package a\nfunc NewReader() {}\n", "sub/b.go": "func NewReader2() {}\n", "x.log": "func NewReader\n"}
		age := 0
		for _, name := range []string{".gitignore", "a.go", "sub/b.go", "x.log"} {
			p := filepath.Join(dir, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			writeFile(t, p, files[name])
			ts := time.Date(2024, 1, 1, 0, 0, age, 0, time.UTC)
			require.NoError(t, os.Chtimes(p, ts, ts))
			age++
		}
		in := strings.Join([]string{
			`{"id":1,"tool":"glob","args":{"pattern":"*.go"}}`,
			`{"id":2,"tool":"grep","args":{"pattern":"func NewReader"}}`,
			`{"id":3,"tool":"grep","args":{"pattern":"(","include":"*.go"}}`,
			`{"id":4,"tool":"glob","args":{"pattern":"*","path":"missing"}}`,
			`{"id":5,"tool":"grep","args":{"pattern":"NewReader","path":"x.log"}}`,
		}, "\n") + "\n"
		out, stderr, code := runHarness(t, in, "run", "--profile", profile, "--cwd", dir)
		require.Equal(t, 0, code, stderr)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 5, out)
		var res []struct {
			Text      string `json:"text"`
			IsError   bool   `json:"isError"`
			Code      string `json:"code"`
			ErrorName string `json:"errorName"`
		}
		for _, l := range lines {
			var r struct {
				Text      string  `json:"text"`
				IsError   bool    `json:"isError"`
				Code      *string `json:"code"`
				ErrorName *string `json:"errorName"`
			}
			require.NoError(t, json.Unmarshal([]byte(l), &r), l)
			var c, n string
			if r.Code != nil {
				c, n = *r.Code, *r.ErrorName
			}
			res = append(res, struct {
				Text      string `json:"text"`
				IsError   bool   `json:"isError"`
				Code      string `json:"code"`
				ErrorName string `json:"errorName"`
			}{r.Text, r.IsError, c, n})
		}
		assert.Equal(t, "sub/b.go\na.go", res[0].Text, profile)
		assert.Equal(t, "Found 2 matches\n\nsub/b.go\nLine 1: func NewReader2() {}\n\na.go\nLine 2: func NewReader() {}", res[1].Text, profile)
		assert.Equal(t, "Error: grep pattern rejected: error parsing regexp: missing closing ): `(`", res[2].Text)
		assert.Equal(t, "SEARCH_INVALID_PATTERN", res[2].Code)
		assert.Equal(t, "SearchError", res[2].ErrorName)
		assert.Equal(t, `Error: cannot search "missing": not found`, res[3].Text)
		assert.Equal(t, "FS_NOT_FOUND", res[3].Code)
		assert.Equal(t, "Found 1 match\n\nx.log\nLine 1: func NewReader", res[4].Text, "an explicitly named ignored file is searched")
	}
}

func TestRunGrepSpills(t *testing.T) {
	dir := realTemp(t)
	state := realTemp(t)
	t.Setenv("XDG_STATE_HOME", state)
	writeFile(t, filepath.Join(dir, "many.txt"), strings.Repeat("hit\n", 300))
	out, stderr, code := runHarness(t, `{"id":1,"tool":"grep","args":{"pattern":"hit"}}`+"\n", "run", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	var r struct {
		Text  string `json:"text"`
		Value struct {
			Total     int    `json:"total"`
			SpillPath string `json:"spillPath"`
		} `json:"value"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, 300, r.Value.Total)
	assert.True(t, strings.HasPrefix(r.Text, "Found 250 of 300 matches\n\nmany.txt\nLine 1: hit\n"), r.Text)
	assert.Regexp(t, `^`+regexp.QuoteMeta(filepath.Join(state, "cordon", "spill"))+`/p-[0-9a-f]{16}$`, filepath.Dir(r.Value.SpillPath), "a directory of the process's own")
	assert.True(t, strings.HasSuffix(r.Text, "\n\n(Full result stored at: "+r.Value.SpillPath+". Use read with offset and limit on that path to see the rest.)"), r.Text)
	body, err := os.ReadFile(r.Value.SpillPath)
	require.NoError(t, err)
	// The header is written before the count is known, in a room padded with spaces (docs/search.md "Spill files").
	assert.True(t, strings.HasPrefix(string(body), "Found 300 matches"+strings.Repeat(" ", 16)+"\n\nmany.txt\nLine 1: hit\n"), string(body[:60]))
	assert.True(t, strings.HasSuffix(string(body), "\nLine 300: hit"))
}
