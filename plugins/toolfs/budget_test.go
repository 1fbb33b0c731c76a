package toolfs_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// linesOf returns n lines of the given width (the line number, padded with 'y').
func linesOf(n, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i) + " " + strings.Repeat("y", width)
		b.WriteString(s[:width])
		b.WriteByte('\n')
	}
	return b.String()
}

// readAll reads name page by page, as the footers say, and checks each page: its whole text fits
// budget, its value agrees with its text, and its footer continues where its lines end. It returns
// the line texts read and the number of pages.
func readAll(t *testing.T, e *env, name string, budget int) ([]string, int) {
	t.Helper()
	var got []string
	offset := 1
	for pages := 1; ; pages++ {
		a := args{"file_path": name}
		if offset > 1 {
			a["offset"] = offset
		}
		r := e.call("read", a)
		requireOK(t, r)
		text := r.Text()
		require.LessOrEqual(t, len(text), budget, "page %d", pages)
		v := r.Value.(toolfs.ReadValue)
		require.Equal(t, toolfs.RenderRead(v, toolfs.DefaultReadLimit), text)
		require.NotEmpty(t, v.Lines)
		for _, l := range v.Lines {
			got = append(got, l.Text)
		}
		last := v.Lines[len(v.Lines)-1].Number
		if last == v.TotalLines {
			require.True(t, strings.HasSuffix(text, endOf(v.TotalLines)+"\n</content>"), text[max(0, len(text)-200):])
			return got, pages
		}
		require.True(t, strings.HasSuffix(text, capped(offset, last)+"\n</content>") ||
			strings.HasSuffix(text, showing(offset, last, v.TotalLines)+"\n</content>"), text[max(0, len(text)-200):])
		offset = last + 1
	}
}

func TestReadBudgetDefault(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, width := range []int{25, 60, 100} {
		content := linesOf(2000, width)
		name := "w" + strconv.Itoa(width) + ".txt"
		e.writeFile(t, name, content)
		r := e.call("read", args{"file_path": name})
		requireOK(t, r)
		text := r.Text()
		require.LessOrEqual(t, len(text), toolfs.DefaultResultBudget)
		v := r.Value.(toolfs.ReadValue)
		n := len(v.Lines)
		require.Less(t, n, 2000)
		require.True(t, strings.HasSuffix(text, "\n\n"+capped(1, n)+"\n</content>"), text[len(text)-100:])
		// Tight: the next line, numbered, would not have fit.
		require.Greater(t, len(text)+len(strconv.Itoa(n+1))+2+width+1+1, toolfs.DefaultResultBudget) // +1: the footer's longer numbers at most
		got, pages := readAll(t, e, name, toolfs.DefaultResultBudget)
		require.Equal(t, strings.Split(strings.TrimSuffix(content, "\n"), "\n"), got)
		require.Greater(t, pages, 1)
	}
}

func TestReadBudgetFollowsTheClient(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "f.txt", linesOf(2000, 60))
	width := func(client string) int {
		e.session.SetHeader(tools.Header{Client: client, ClientVersion: "2.1.332"})
		r := e.call("read", args{"file_path": "f.txt"})
		requireOK(t, r)
		return len(r.Text())
	}
	require.LessOrEqual(t, width(""), 36000)
	require.Greater(t, width(""), 35000)
	require.LessOrEqual(t, width("claude-code"), 48000)
	require.Greater(t, width("claude-code"), 47000)
	require.LessOrEqual(t, width("Claude-Code"), 36000, "client names match exactly")
	got, _ := readAll(t, e, "f.txt", 48000)
	require.Len(t, got, 2000)
}

func TestReadBudgetConfig(t *testing.T) {
	cfg := toolfs.DefaultConfig()
	cfg.ResultBudget = 20000
	cfg.ResultBudgetByClient = map[string]confint.Int{"claude-code": 30000, "tiny": 300}
	e := newEnv(t, envOptions{config: &cfg})
	e.writeFile(t, "f.txt", linesOf(2000, 60))
	for client, budget := range map[string]int{"": 20000, "claude-code": 30000, "tiny": 300} {
		e.session.SetHeader(tools.Header{Client: client})
		r := e.call("read", args{"file_path": "f.txt"})
		requireOK(t, r)
		require.LessOrEqual(t, len(r.Text()), budget, client)
		require.Greater(t, len(r.Text()), budget-70, client)
	}
}

// TestReadBudgetStreamedAgrees: a streamed read (readStreamMinSize 1) shows what a whole read shows.
func TestReadBudgetStreamedAgrees(t *testing.T) {
	cfg := toolfs.DefaultConfig()
	cfg.ReadStreamMinSize = 1
	streamed := newEnv(t, envOptions{config: &cfg})
	whole := newEnv(t, envOptions{})
	content := linesOf(2000, 40) + strings.Repeat("é", 3000) + "\n"
	for _, e := range []*env{streamed, whole} {
		e.writeFile(t, "f.txt", content)
	}
	for _, offset := range []int{1, 700, 1990, 2001} {
		a := args{"file_path": "f.txt", "offset": offset}
		rs, rw := streamed.call("read", a), whole.call("read", a)
		requireOK(t, rs)
		require.Equal(t, strings.ReplaceAll(rw.Text(), whole.dir, streamed.dir), rs.Text(), "offset %d", offset)
	}
	require.Equal(t, []string{"streamText"}, filterOps(streamed.fsys.take(), "streamText"))
}

func filterOps(ops []string, op string) []string {
	var out []string
	for _, o := range ops {
		if o == op {
			out = append(out, o)
		}
	}
	return out[:min(len(out), 1)]
}

// TestErrorBudget: an error over the budget loses its later lines (the guidance), never its first
// line, and keeps its code.
func TestErrorBudget(t *testing.T) {
	first, _, _ := strings.Cut(denial(sandbox.WorkspaceWrite), "\n")
	cfg := toolfs.DefaultConfig()
	cfg.ResultBudget = confint.Int(len(first) + 10)
	e := newSandboxEnv(t, sandboxOptions{config: &cfg})
	e.fsys.rejectWith = fs.NewError(fs.CodeSandboxDenied, "denied", nil)
	r := e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, first, "FS_SANDBOX_DENIED")
	e.session.SetHeader(tools.Header{Cwd: e.project, Client: "claude-code"})
	r = e.call("write", args{"file_path": "a.txt", "content": "x"})
	requireFailure(t, r, denial(sandbox.WorkspaceWrite), "FS_SANDBOX_DENIED")

	cfg.ResultBudget = 5
	small := newEnv(t, envOptions{config: &cfg})
	r = small.call("read", args{"file_path": "missing.txt"})
	requireFailure(t, r, `Error: cannot read "`+small.path("missing.txt")+`": not found`, "FS_NOT_FOUND")
}

// TestBudgetConfigDecoding: the budget keys decode strictly from YAML, as whole numbers, and the
// per-client entries given are merged over the built-in one.
func TestBudgetConfigDecoding(t *testing.T) {
	decode := func(src string) (toolfs.Config, error) { return decodeConfig(t, src) }
	c, err := decode("resultBudget: 30000\nresultBudgetByClient: {claude-code: 40000, gemini-cli-mcp-client: 30000}")
	require.NoError(t, err)
	require.Equal(t, confint.Int(30000), c.ResultBudget)
	require.Equal(t, map[string]confint.Int{"claude-code": 40000, "gemini-cli-mcp-client": 30000}, c.ResultBudgetByClient)
	c, err = decode("resultBudgetByClient: {opencode: 45000}")
	require.NoError(t, err)
	require.Equal(t, map[string]confint.Int{"claude-code": 48000, "opencode": 45000}, c.ResultBudgetByClient)
	for _, src := range []string{"resultBudget: 1.5", "resultBudget: \"9\"", "resultBudgetByClient: {x: 2.5}", "resultBudgetByClient: [1]"} {
		_, err := decode(src)
		require.Error(t, err, src)
	}
	_, err = decode("resultBudget: -3")
	require.EqualError(t, err, "tool-fs: resultBudget must be a positive integer")
}

// TestReadCapsDecodeAsIntegers: the read caps are whole numbers to the decoder (a fraction, NaN or a
// string fails the decoding, naming its line); zero and negatives fail validation by name.
func TestReadCapsDecodeAsIntegers(t *testing.T) {
	decode := func(src string) (toolfs.Config, error) { return decodeConfig(t, src) }
	c, err := decode("readLimit: 7\nreadMaxLineLength: 8\nreadMaxBytes: 9\nreadStreamMinSize: 10")
	require.NoError(t, err)
	require.Equal(t, toolfs.Config{ReadLimit: 7, ReadMaxLineLength: 8, ReadMaxBytes: 9, ReadStreamMinSize: 10,
		ResultBudget: 36000, ResultBudgetByClient: map[string]confint.Int{"claude-code": 48000}}, c)
	for _, key := range []string{"readLimit", "readMaxLineLength", "readMaxBytes", "readStreamMinSize"} {
		for _, bad := range []string{"1.5", ".nan", "\"9\""} {
			_, err := decode(key + ": " + bad)
			require.ErrorContains(t, err, "line 1: cannot unmarshal", key+"="+bad)
			require.ErrorContains(t, err, "into an integer", key+"="+bad)
		}
		for _, bad := range []string{"0", "-1"} {
			_, err := decode(key + ": " + bad)
			require.EqualError(t, err, "tool-fs: "+key+" must be a positive integer", key+"="+bad)
		}
	}
}

// decodeConfig decodes src as a tool-fs entry's config, strictly, as the loader does.
func decodeConfig(t *testing.T, src string) (toolfs.Config, error) {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &n))
	c, err := loader.DecodeConfig(toolfs.Plugin, &n)
	if err != nil {
		return toolfs.Config{}, err
	}
	return *c.(*toolfs.Config), nil
}
