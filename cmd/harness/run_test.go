package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runLine is one output line of `harness run`.
type runLine struct {
	ID        any             `json:"id"`
	Tool      *string         `json:"tool"`
	IsError   bool            `json:"isError"`
	Text      string          `json:"text"`
	Content   []any           `json:"content"`
	Code      *string         `json:"code"`
	ErrorName *string         `json:"errorName"`
	Value     json.RawMessage `json:"value"`
	Meta      json.RawMessage `json:"meta"`
}

// runProc is a live `harness run` driven line by line.
type runProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
}

func startRun(t *testing.T, args ...string) *runProc {
	t.Helper()
	cmd := exec.Command(harnessBin, append([]string{"run"}, args...)...)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	p := &runProc{t: t, cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout)}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr.String())
		}
	})
	return p
}

// send writes one input line and returns the raw output line answering it (a result is flushed per
// line, so this never waits for EOF).
func (p *runProc) send(line string) string {
	p.t.Helper()
	_, err := io.WriteString(p.stdin, line+"\n")
	require.NoError(p.t, err)
	out, err := p.stdout.ReadString('\n')
	require.NoError(p.t, err)
	return out
}

func (p *runProc) call(line string) runLine {
	p.t.Helper()
	var r runLine
	raw := p.send(line)
	require.NoError(p.t, json.Unmarshal([]byte(raw), &r), raw)
	return r
}

func jsonLine(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestRunInterleavedExternalChanges(t *testing.T) {
	dir := realTemp(t)
	file := filepath.Join(dir, "a.txt")
	writeFile(t, file, "alpha\nbeta\n")
	p := startRun(t, "--cwd", dir)

	r := p.call(`{"id":1,"tool":"read","args":{"file_path":"a.txt"}}`)
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, float64(1), r.ID)
	assert.JSONEq(t, `{"path":"`+file+`","offset":1,"lines":[{"number":1,"text":"alpha"},{"number":2,"text":"beta"}],"totalLines":2}`, string(r.Value))

	writeFile(t, file, "alpha\nbeta\ngamma (external)\n")
	r = p.call(`{"id":2,"tool":"edit","args":{"file_path":"a.txt","old_string":"beta","new_string":"BETA"}}`)
	assert.True(t, r.IsError)
	assert.Equal(t, `Error: cannot edit "`+file+`": file changed since it was read — re-read the file, then retry`+
		"\nWhat changed since the read (- as read, + now):\n@@ -1,2 +1,3 @@\n alpha\n beta\n+gamma (external)\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read.", r.Text)
	assert.Equal(t, "FS_STALE_VERSION", *r.Code)
	assert.Equal(t, "FsError", *r.ErrorName)
	assert.Equal(t, "null", string(r.Value))

	r = p.call(`{"id":3,"tool":"read","args":{"file_path":"a.txt","offset":3}}`)
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, envelope(file, "3: gamma (external)\n\n"+endOf(3)), r.Text)

	r = p.call(`{"id":4,"tool":"edit","args":{"file_path":"a.txt","old_string":"beta","new_string":"BETA"}}`)
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, edited(file), r.Text)
	assert.JSONEq(t, `{"diffs":[{"path":"a.txt","oldText":"alpha\nbeta\ngamma (external)","newText":"alpha\nBETA\ngamma (external)"}]}`, string(r.Meta))

	// Another session has not read the file; a null session has no owner at all.
	r = p.call(`{"id":5,"tool":"write","args":{"file_path":"a.txt","content":"x"},"session":"other"}`)
	assert.Equal(t, "FS_NOT_OBSERVED", *r.Code)
	r = p.call(`{"id":6,"tool":"write","args":{"file_path":"a.txt","content":"x"},"session":null}`)
	assert.Equal(t, "FS_NOT_OBSERVED", *r.Code)

	// The default session keeps its observation after our own edit: a write goes through, then an
	// external delete makes the next guarded write stale.
	r = p.call(`{"id":7,"tool":"write","args":{"file_path":"a.txt","content":"final\n"}}`)
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, "final\n", readFile(t, file))
	writeFile(t, file, "rewritten elsewhere\n")
	r = p.call(`{"id":8,"tool":"write","args":{"file_path":"a.txt","content":"mine\n"}}`)
	assert.Equal(t, `Error: cannot write "`+file+`": file changed since it was read — re-read the file, then retry`+
		"\nWhat changed since the read (- as read, + now):\n@@ -1,1 +1,1 @@\n-final\n+rewritten elsewhere\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read.", r.Text)
	assert.Equal(t, "rewritten elsewhere\n", readFile(t, file))
}

func TestRunSessionsCwdAndMalformedLines(t *testing.T) {
	root := realTemp(t)
	sub := filepath.Join(root, "sub")
	require.NoError(t, mkdir(sub))
	writeFile(t, filepath.Join(root, "r.txt"), "root\n")
	writeFile(t, filepath.Join(sub, "r.txt"), "sub\n")
	p := startRun(t, "--cwd", root)

	r := p.call(`{"id":"a","tool":"read","args":{"file_path":"r.txt"}}`)
	assert.Contains(t, r.Text, "1: root")
	r = p.call(jsonLine(map[string]any{"id": "b", "tool": "read", "args": map[string]any{"file_path": "r.txt"}, "session": "s2", "cwd": sub}))
	assert.Contains(t, r.Text, "1: sub")
	r = p.call(`{"id":"c","tool":"read","args":{"file_path":"r.txt"},"session":"s2"}`)
	assert.Contains(t, r.Text, "1: sub", "cwd sticks to the session from that call on")

	for i, bad := range []string{`not json`, `{"id":9}`, `{"id":10,"tool":"read","cwd":"relative"}`, ``} {
		raw := p.send(bad)
		var r runLine
		require.NoError(t, json.Unmarshal([]byte(raw), &r), raw)
		assert.True(t, r.IsError, "line %d", i)
		assert.Equal(t, "INVALID_REQUEST", *r.Code, "line %d", i)
		assert.True(t, strings.HasPrefix(r.Text, "Error: invalid request: "), r.Text)
	}
	r = p.call(`{"id":"d","tool":"nope"}`)
	assert.Equal(t, `Error: unknown tool "nope"`, r.Text)
	assert.Equal(t, "UNKNOWN_TOOL", *r.Code)
	r = p.call(`{"id":"e","tool":"read","args":{}}`)
	assert.Equal(t, `Error: invalid arguments: missing required property "file_path"`, r.Text)
	assert.Equal(t, "INVALID_ARGS", *r.Code)
}

func TestRunOutputShape(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "x.txt"), "x\n")
	out, stderr, code := runHarness(t, `{"id":1,"tool":"read","args":{"file_path":"x.txt"}}`+"\n"+`{"tool":"nope"}`, "run", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 2)
	p := filepath.Join(dir, "x.txt")
	text := envelope(p, "1: x\n\n"+endOf(1))
	tj := fmt.Sprintf("%q", text) // ASCII and \n only: Go quoting is JSON quoting, with no HTML escaping
	assert.Equal(t, fmt.Sprintf(`{"id":1,"tool":"read","isError":false,"text":%s,"content":[{"type":"text","text":%s}],"code":null,"errorName":null,"value":{"path":%q,"offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1},"meta":{"path":%q,"offset":1,"lines":[{"number":1,"text":"x"}],"totalLines":1}}`, tj, tj, p, p), lines[0])
	assert.Equal(t, `{"id":null,"tool":"nope","isError":true,"text":"Error: unknown tool \"nope\"","content":[{"type":"text","text":"Error: unknown tool \"nope\""}],"code":"UNKNOWN_TOOL","errorName":"ToolNotFoundError","value":null,"meta":null}`, lines[1])
	assert.Contains(t, stderr, "ready: reading JSON lines on stdin")
}
