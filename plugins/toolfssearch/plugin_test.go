package toolfssearch_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestSchemasDescriptionsAndGuidance(t *testing.T) {
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GlobMaxResults, c.GrepMaxMatches = 7, 9 }), nil)
	schemas := e.rt.Schemas()
	require.Len(t, schemas, 2)
	require.Equal(t, "glob", schemas[0].Name)
	require.Equal(t, golden("glob.description", "max", "7"), schemas[0].Description)
	require.Equal(t, "grep", schemas[1].Name)
	require.Equal(t, golden("grep.description", "max", "9"), schemas[1].Description)
	var glob, grep struct {
		Properties map[string]struct{ Type string } `json:"properties"`
		Required   []string                         `json:"required"`
	}
	require.NoError(t, json.Unmarshal(schemas[0].Parameters, &glob))
	require.NoError(t, json.Unmarshal(schemas[1].Parameters, &grep))
	require.Equal(t, []string{"pattern"}, glob.Required)
	require.Len(t, glob.Properties, 2)
	require.Equal(t, []string{"pattern"}, grep.Required)
	require.Len(t, grep.Properties, 3)
	require.Equal(t, "string", grep.Properties["include"].Type)

	sections := e.rt.GuidanceSections()
	require.Len(t, sections, 2)
	require.Equal(t, golden("glob.guidance"), sections[0].Text)
	require.Equal(t, golden("grep.guidance"), sections[1].Text)
	require.Greater(t, sections[0].Order, 102, "after tool-fs's sections")
	require.Greater(t, sections[1].Order, sections[0].Order)
	for _, name := range []string{"glob", "grep"} {
		def, ok := e.rt.Get(name)
		require.True(t, ok)
		require.Equal(t, "30s", def.Timeout.String())
		require.True(t, def.Annotations.ReadOnly)
	}
}

// plainFS hides the provider's Searcher.
type plainFS struct{ fs.FileSystem }

func TestProviderWithoutSearcherRegistersNothing(t *testing.T) {
	e := newEnv(t, nil, func(p fs.FileSystem) fs.FileSystem { return plainFS{p} })
	require.Empty(t, e.rt.Schemas())
	warns := e.logs.FilterMessageSnippet("fs.Searcher").All()
	require.Len(t, warns, 1)
	require.Equal(t, "toolfssearch_test.plainFS", warns[0].ContextMap()["provider"])
}

func TestConfigDefaultsAndStrictDecoding(t *testing.T) {
	d := toolfssearch.DefaultConfig()
	require.Equal(t, toolfssearch.Config{GlobMaxResults: 100, GrepMaxMatches: 250, GrepMaxLineBytes: 2000,
		SampleOverCapGlobResults: true, TimeoutMs: 30000, MaxFilesVisited: 500000, IncludeIgnored: false, Spill: true,
		SpillMaxBytes: 16 << 20, SpillQuotaBytes: 128 << 20, ResultBudget: 36000, ResultBudgetByClient: map[string]confint.Int{"claude-code": 48000}}, d)
	decode := func(src string) (any, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return loader.DecodeConfig(toolfssearch.Plugin, &n)
	}
	for _, key := range []string{"globMaxResults", "grepMaxMatches", "grepMaxLineBytes", "timeoutMs", "maxFilesVisited"} {
		for _, bad := range []string{"0", "-1"} {
			_, err := decode(key + ": " + bad)
			require.EqualError(t, err, "tool-fs-search: "+key+" must be a positive integer", key+"="+bad)
		}
		// A count is a whole number to the decoder: a fraction is not truncated.
		for _, bad := range []string{"1.5", ".nan", "\"9\""} {
			_, err := decode(key + ": " + bad)
			require.ErrorContains(t, err, "line 1: cannot unmarshal", key+"="+bad)
			require.ErrorContains(t, err, "into an integer", key+"="+bad)
		}
	}
	_, err := decode("grepMaxLines: 3")
	require.Error(t, err)
	require.Contains(t, err.Error(), "grepMaxLines")
	cfg, err := decode("includeIgnored: true\nspill: false\nsampleOverCapGlobResults: false\nglobMaxResults: 5")
	require.NoError(t, err)
	c := cfg.(*toolfssearch.Config)
	require.True(t, c.IncludeIgnored)
	require.False(t, c.Spill)
	require.False(t, c.SampleOverCapGlobResults)
	require.Equal(t, confint.Int(5), c.GlobMaxResults)
}

func TestSearchesEmitNoObservation(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.write(t, "a.go", "hit\n", 0)
	observed := 0
	_, err := fs.ObservedEvent.On(e.root, func(context.Context, fs.ObservedArgs) error { observed++; return nil })
	require.NoError(t, err)
	requireText(t, e.call("grep", map[string]any{"pattern": "hit"}), found(1)+"\n\na.go\nLine 1: hit")
	requireText(t, e.call("glob", map[string]any{"pattern": "*.go"}), "a.go")
	require.Zero(t, observed)
}

func TestArgumentErrors(t *testing.T) {
	e := newEnv(t, nil, nil)
	cases := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"glob", map[string]any{"pattern": " \t"}, golden("search.error.blank_pattern")},
		{"grep", map[string]any{"pattern": ""}, golden("search.error.blank_pattern")},
		{"glob", map[string]any{"pattern": "*", "path": " "}, golden("search.error.blank_path")},
		{"grep", map[string]any{"pattern": "x", "path": ""}, golden("search.error.blank_path")},
		{"grep", map[string]any{"pattern": "x", "include": " "}, golden("grep.error.blank_include")},
		{"grep", map[string]any{"pattern": "x", "include": "!*.go"}, golden("grep.error.negated_include")},
		{"grep", map[string]any{"pattern": "x", "include": "*.ts,*.js"}, golden("grep.error.include_list")},
	}
	for _, c := range cases {
		r := e.call(c.tool, c.args)
		requireError(t, r, c.msg, "", "")
		require.False(t, r.Error.HasCode())
	}
	// A whitespace pattern is a regular expression; braces hold commas.
	e.write(t, "a.ts", "a  b\n", 0)
	requireText(t, e.call("grep", map[string]any{"pattern": "  ", "include": "*.{ts,tsx}"}), found(1)+"\n\na.ts\nLine 1: a  b")
}

func TestSearchErrors(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.write(t, "file.txt", "x\n", 0)
	requireError(t, e.call("glob", map[string]any{"pattern": "[a-"}), golden("search.error.invalid_pattern", "tool", "glob", "reason", "syntax error in pattern"), "SearchError", "SEARCH_INVALID_PATTERN")
	requireError(t, e.call("grep", map[string]any{"pattern": "(unclosed"}), golden("search.error.invalid_pattern", "tool", "grep", "reason", "error parsing regexp: missing closing ): `(unclosed`"), "SearchError", "SEARCH_INVALID_PATTERN")
	requireError(t, e.call("grep", map[string]any{"pattern": "x", "include": "{a"}), golden("search.error.invalid_pattern", "tool", "grep", "reason", "syntax error in pattern"), "SearchError", "SEARCH_INVALID_PATTERN")
	requireError(t, e.call("glob", map[string]any{"pattern": "*", "path": "missing/dir"}), golden("search.error.not_found", "path", "missing/dir"), "FsError", "FS_NOT_FOUND")
	requireError(t, e.call("grep", map[string]any{"pattern": "x", "path": "/nonexistent-cordon"}), golden("search.error.not_found", "path", "/nonexistent-cordon"), "FsError", "FS_NOT_FOUND")
	requireError(t, e.call("grep", map[string]any{"pattern": "x", "path": "file.txt/below"}), golden("search.error.not_found", "path", "file.txt/below"), "FsError", "FS_NOT_FOUND")
	requireError(t, e.call("glob", map[string]any{"pattern": "*", "path": "file.txt"}), golden("search.error.not_directory", "path", "file.txt"), "FsError", "FS_NOT_DIRECTORY")
	// grep takes a file.
	requireText(t, e.call("grep", map[string]any{"pattern": "x", "path": "file.txt"}), found(1)+"\n\nfile.txt\nLine 1: x")
}

// blockingFS is a Searcher whose searches wait for their context to end.
type blockingFS struct {
	fs.FileSystem
	started chan struct{}
}

func (b blockingFS) Glob(ctx context.Context, _ fs.Target, _ fs.GlobQuery) (fs.GlobResult, error) {
	close(b.started)
	<-ctx.Done()
	return fs.GlobResult{}, fs.Aborted(fs.VerbSearch, ctx.Err())
}

func (b blockingFS) Grep(ctx context.Context, _ fs.Target, _ fs.GrepQuery, _ func(fs.LineMatch) error) (fs.GrepResult, error) {
	close(b.started)
	<-ctx.Done()
	return fs.GrepResult{}, fs.Aborted(fs.VerbSearch, ctx.Err())
}

func TestTimeoutAndCancellationAbort(t *testing.T) {
	for _, tool := range []string{"glob", "grep"} {
		started := make(chan struct{})
		e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.TimeoutMs = 50 }), func(p fs.FileSystem) fs.FileSystem { return blockingFS{p, started} })
		requireError(t, e.call(tool, map[string]any{"pattern": "x"}), golden("search.error.aborted", "tool", tool), "SearchError", "SEARCH_ABORTED")

		started = make(chan struct{})
		e = newEnv(t, nil, func(p fs.FileSystem) fs.FileSystem { return blockingFS{p, started} })
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		requireError(t, e.callCtx(ctx, tool, map[string]any{"pattern": "x"}), golden("search.error.aborted", "tool", tool), "SearchError", "SEARCH_ABORTED")
	}
}

// failingFS fails every search with a plain error (the root cannot be read).
type failingFS struct{ fs.FileSystem }

func (failingFS) Glob(context.Context, fs.Target, fs.GlobQuery) (fs.GlobResult, error) {
	return fs.GlobResult{}, errRoot
}

func (failingFS) Grep(context.Context, fs.Target, fs.GrepQuery, func(fs.LineMatch) error) (fs.GrepResult, error) {
	return fs.GrepResult{}, errRoot
}

var errRoot = &fs.Error{Kind: fs.CodePermissionDenied, Message: "open /w: permission denied"}

func TestUnreadableRootFails(t *testing.T) {
	e := newEnv(t, nil, func(p fs.FileSystem) fs.FileSystem { return failingFS{p} })
	requireError(t, e.call("glob", map[string]any{"pattern": "*"}), golden("search.error.failed", "tool", "glob", "reason", "open /w: permission denied"), "SearchError", "SEARCH_FAILED")
	requireError(t, e.call("grep", map[string]any{"pattern": "x"}), golden("search.error.failed", "tool", "grep", "reason", "open /w: permission denied"), "SearchError", "SEARCH_FAILED")
}

func TestValueIsTheRenderedResult(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.write(t, "a.go", "hit\n", 0)
	r := e.call("grep", map[string]any{"pattern": "hit"})
	b, err := json.Marshal(r.Value)
	require.NoError(t, err)
	require.JSONEq(t, `{"matches":[{"path":"a.go","line":1,"text":"hit","truncated":false,"validUTF8":true}],"total":1,"spillPath":"","spillKept":0,"spillLimit":0,"stoppedAfter":0,"skipped":0,"partialIgnore":0}`, string(b))
	require.Equal(t, r.Text(), toolfssearch.RenderGrep(r.Value.(toolfssearch.GrepValue)))
	require.True(t, strings.HasPrefix(tools.ErrorResult(errRoot).Text(), "Error: "))
}
