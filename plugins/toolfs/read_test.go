package toolfs_test

import (
	"os"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadRendersExactEnvelope(t *testing.T) {
	for _, bare := range []bool{false, true} {
		e := newEnv(t, envOptions{bare: bare})
		e.writeFile(t, "a.txt", "hello\nworld")
		r := e.call("read", args{"file_path": "a.txt"})
		requireOK(t, r)
		assert.Equal(t, envelope(e.path("a.txt"), "1: hello\n2: world\n\n"+endOf(2)), r.Text())
		assert.JSONEq(t, `{"path":"`+e.path("a.txt")+`","offset":1,"lines":[{"number":1,"text":"hello"},{"number":2,"text":"world"}],"totalLines":2}`, valueJSON(t, r))
		assert.JSONEq(t, `{"path":"`+e.path("a.txt")+`","offset":1,"lines":[{"number":1,"text":"hello"},{"number":2,"text":"world"}],"totalLines":2}`, metaJSON(t, r))
	}
}

func TestReadWindowsAndFooters(t *testing.T) {
	cases := []struct {
		name    string
		config  func(c *toolfs.Config)
		content string
		args    args
		body    string
	}{
		{"empty file", nil, "", nil, endOf(0)},
		{"one line, no plural", nil, "x\n", nil, "1: x\n\n" + endOf(1)},
		{"offset and limit", nil, "one\ntwo\nthree\nfour", args{"offset": 2, "limit": 2},
			"2: two\n3: three\n\n" + showing(2, 3, 4)},
		{"readLimit is the default", func(c *toolfs.Config) { c.ReadLimit = 2 }, "one\ntwo\nthree\nfour", nil,
			"1: one\n2: two\n\n" + showing(1, 2, 4)},
		{"line truncation", func(c *toolfs.Config) { c.ReadMaxLineLength = 4 }, "abcdefgh", nil,
			"1: abcd" + truncatedTo(4) + "\n\n" + endOf(1)},
		{"byte cap", func(c *toolfs.Config) { c.ReadMaxBytes = 9 }, "aaaa\nbbbb\ncccc", nil,
			"1: aaaa\n2: bbbb\n\n" + capped(1, 2)},
		{"byte cap selects nothing", func(c *toolfs.Config) { c.ReadMaxBytes = 3 }, "1\n2\n3\n4\nlong line\n", args{"offset": 5},
			capped(5, 4)},
		{"crlf", nil, "a\r\nb\r\n", nil, "1: a\n2: b\n\n" + endOf(2)},
		{"bom is invisible", nil, "\ufeffbom\n", nil, "1: bom\n\n" + endOf(1)},
		{"last page", nil, "a\nb\nc\n", args{"offset": 3}, "3: c\n\n" + endOf(3)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := toolfs.DefaultConfig()
			if tc.config != nil {
				tc.config(&cfg)
			}
			e := newEnv(t, envOptions{config: &cfg})
			e.writeFile(t, "f.txt", tc.content)
			a := args{"file_path": "f.txt"}
			for k, v := range tc.args {
				a[k] = v
			}
			r := e.call("read", a)
			requireOK(t, r)
			assert.Equal(t, envelope(e.path("f.txt"), tc.body), r.Text())
		})
	}
}

// TestReadDefaultByteCapOnLongLines checks readMaxBytes alone: the budget is set wide enough not to
// stop the window first (TestReadBudget* cover the budget).
func TestReadDefaultByteCapOnLongLines(t *testing.T) {
	cfg := toolfs.DefaultConfig()
	cfg.ResultBudget = 1 << 30
	e := newEnv(t, envOptions{config: &cfg})
	e.writeFile(t, "big.txt", strings.TrimSuffix(strings.Repeat(strings.Repeat("y", 100)+"\n", 2000), "\n"))
	r := e.call("read", args{"file_path": "big.txt"})
	requireOK(t, r)
	assert.True(t, strings.HasSuffix(r.Text(), "\n\n"+capped(1, 506)+"\n</content>"))
}

func TestReadEmptyFileValue(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "empty.txt", "")
	r := e.call("read", args{"file_path": "empty.txt"})
	requireOK(t, r)
	assert.JSONEq(t, `{"path":"`+e.path("empty.txt")+`","offset":1,"lines":[],"totalLines":0}`, valueJSON(t, r))
}

func TestReadMetaLang(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.ts", "const x = 1\nconst y = 2")
	r := e.call("read", args{"file_path": "a.ts"})
	requireOK(t, r)
	assert.JSONEq(t, `{"path":"`+e.path("a.ts")+`","offset":1,"lines":[{"number":1,"text":"const x = 1"},{"number":2,"text":"const y = 2"}],"totalLines":2,"lang":"ts"}`, metaJSON(t, r))
}

func TestReadArgumentErrors(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "x")
	cases := []struct {
		args args
		text string
		code string
	}{
		{args{"file_path": "   "}, argError("read.error.blank_path"), ""},
		{args{"file_path": "\u3000\ufeff"}, argError("read.error.blank_path"), ""},
		{args{"file_path": "a.txt", "offset": 0}, argError("read.error.offset"), ""},
		{args{"file_path": "a.txt", "offset": 1.5}, argError("read.error.offset"), ""},
		{args{"file_path": "a.txt", "limit": 0}, argError("read.error.limit"), ""},
		{args{"file_path": "a.txt", "limit": -3}, argError("read.error.limit"), ""},
		{args{"file_path": "a.txt", "limit": 99999}, argError("read.error.limit_max", "max", "2000"), ""},
		{args{"file_path": "a.txt", "offset": "two"}, `Error: invalid arguments: "offset" must be a number`, "INVALID_ARGS"},
		{args{}, `Error: invalid arguments: missing required property "file_path"`, "INVALID_ARGS"},
	}
	for _, tc := range cases {
		r := e.call("read", tc.args)
		require.True(t, r.IsError, "%v", tc.args)
		assert.Equal(t, tc.text, r.Text(), "%v", tc.args)
		assert.Equal(t, tc.code, r.Code(), "%v", tc.args)
	}
	// Validation runs before any I/O.
	assert.Empty(t, e.fsys.take())
	// Unknown keys are ignored (open parameter root).
	requireOK(t, e.call("read", args{"file_path": "a.txt", "filePath": "other"}))
}

func TestReadLimitCapFollowsConfig(t *testing.T) {
	cfg := toolfs.DefaultConfig()
	cfg.ReadLimit = 2
	e := newEnv(t, envOptions{config: &cfg})
	e.writeFile(t, "a.txt", "one\ntwo\nthree")
	requireFailure(t, e.call("read", args{"file_path": "a.txt", "limit": 3}), argError("read.error.limit_max", "max", "2"), "")
	requireOK(t, e.call("read", args{"file_path": "a.txt", "limit": 2}))
}

func TestReadFailures(t *testing.T) {
	e := newEnv(t, envOptions{})
	require.NoError(t, os.Mkdir(e.path("dir"), 0o755))
	e.writeFile(t, "bin", "\x00\x01\x02")
	e.writeFile(t, "bad.txt", "ok\n\xff\n")
	e.writeFile(t, "two.txt", "a\nb\n")
	e.writeFile(t, "empty.txt", "")
	cases := []struct {
		args args
		text string
		code string
	}{
		{args{"file_path": "missing.txt"}, `Error: cannot read "` + e.path("missing.txt") + `": not found`, "FS_NOT_FOUND"},
		{args{"file_path": "dir"}, `Error: cannot read "` + e.path("dir") + `": not a regular file` + "\nIt is a directory: to list its files, call glob with path \"" + e.path("dir") + "\" and a pattern such as \"*\".", "FS_NOT_REGULAR_FILE"},
		{args{"file_path": "bin"}, `Error: cannot read "` + e.path("bin") + `": binary file` + "\nIt is 3 bytes, application/octet-stream, not text: read shows only text.", "FS_NOT_TEXT"},
		{args{"file_path": "bad.txt"}, `Error: cannot read "` + e.path("bad.txt") + `": invalid UTF-8 text` + "\n" + charsetGuidance, "FS_NOT_TEXT"},
		{args{"file_path": "two.txt", "offset": 3}, `Error: offset 3 is out of range for "` + e.path("two.txt") + `" (2 lines)`, "FS_NOT_FOUND"},
		{args{"file_path": "empty.txt", "offset": 2}, `Error: offset 2 is out of range for "` + e.path("empty.txt") + `" (0 lines)`, "FS_NOT_FOUND"},
	}
	for _, tc := range cases {
		requireFailure(t, e.call("read", tc.args), tc.text, tc.code)
	}
}

func TestReadStreamsLargeOrConfiguredFiles(t *testing.T) {
	cfg := toolfs.DefaultConfig()
	cfg.ReadStreamMinSize = 5
	e := newEnv(t, envOptions{config: &cfg})
	e.writeFile(t, "small.txt", "abcd")
	e.writeFile(t, "big.txt", "alpha\nbeta")
	small := e.call("read", args{"file_path": "small.txt"})
	requireOK(t, small)
	assert.Equal(t, []string{"resolve", "stat", "readText"}, e.fsys.take(), "a whole read asks no charset apart")
	big := e.call("read", args{"file_path": "big.txt"})
	requireOK(t, big)
	assert.Equal(t, []string{"resolve", "stat", "textCharset", "streamText"}, e.fsys.take())
	assert.Equal(t, envelope(e.path("big.txt"), "1: alpha\n2: beta\n\n"+endOf(2)), big.Text())
	// Exactly the threshold streams too.
	e.writeFile(t, "edge.txt", "12345")
	requireOK(t, e.call("read", args{"file_path": "edge.txt"}))
	assert.Equal(t, []string{"resolve", "stat", "textCharset", "streamText"}, e.fsys.take())
}

func TestReadStreamAndWholeGiveIdenticalWindows(t *testing.T) {
	content := "é\r\nline two\n\n" + strings.Repeat("z", 3000) + "\nlast"
	whole := newEnv(t, envOptions{})
	cfg := toolfs.DefaultConfig()
	cfg.ReadStreamMinSize = 1
	stream := newEnv(t, envOptions{config: &cfg})
	whole.writeFile(t, "f.txt", content)
	stream.writeFile(t, "f.txt", content)
	for _, a := range []args{{}, {"offset": 2}, {"offset": 4, "limit": 1}} {
		a["file_path"] = "f.txt"
		w, s := whole.call("read", a), stream.call("read", a)
		requireOK(t, w)
		requireOK(t, s)
		assert.Equal(t, strings.ReplaceAll(w.Text(), whole.dir, "<dir>"), strings.ReplaceAll(s.Text(), stream.dir, "<dir>"))
	}
}
