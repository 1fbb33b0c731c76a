package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wireServer is `harness serve` driven over its real pipes, one raw JSON-RPC line at a time.
type wireServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan []byte // the server's output lines
	errb  *lockedBuffer
}

func startWire(t *testing.T, args ...string) *wireServer {
	t.Helper()
	cmd := exec.Command(harnessBin, append([]string{"serve"}, args...)...)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	w := &wireServer{t: t, cmd: cmd, in: in, lines: make(chan []byte, 1024), errb: &lockedBuffer{}}
	cmd.Stderr = w.errb
	require.NoError(t, cmd.Start())
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				w.lines <- line
			}
			if err != nil {
				close(w.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return w
}

func (w *wireServer) send(line string) {
	w.t.Helper()
	_, err := io.WriteString(w.in, line+"\n")
	require.NoError(w.t, err)
}

// recv returns the next output line, decoded.
func (w *wireServer) recv() map[string]json.RawMessage {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		require.True(w.t, ok, "the server closed its output (stderr: %s)", w.errb.String())
		var msg map[string]json.RawMessage
		require.NoError(w.t, json.Unmarshal(line, &msg), "%s", line)
		return msg
	case <-time.After(20 * time.Second):
		w.t.Fatalf("no answer within 20s (stderr: %s)", w.errb.String())
		return nil
	}
}

func (w *wireServer) initialize(version string) {
	w.t.Helper()
	w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"wire","version":"0"}}}`)
	msg := w.recv()
	require.Equal(w.t, `"init"`, string(msg["id"]), "%v", msg)
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func callLine(id string, tool string, args any) string {
	b, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + string(b) + `}`
}

// errorCode returns a response's JSON-RPC error code, or 0.
func errorCode(t *testing.T, msg map[string]json.RawMessage) int {
	t.Helper()
	var e struct {
		Code int `json:"code"`
	}
	if raw, ok := msg["error"]; ok {
		require.NoError(t, json.Unmarshal(raw, &e))
	}
	return e.Code
}

// resultText is the text of a tools/call response.
func wireText(t *testing.T, msg map[string]json.RawMessage) string {
	t.Helper()
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	require.NoError(t, json.Unmarshal(msg["result"], &res), "%v", msg)
	require.NotEmpty(t, res.Content)
	return res.Content[0].Text
}

// Every kind of bad input is answered with the JSON-RPC error it deserves (id null where none can
// be read) and the server goes on serving: a normal read after each works.
func TestServeAnswersMalformedMessagesAndKeepsServing(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	w := startWire(t, "--cwd", dir)
	w.initialize("2025-11-25")
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	cases := []struct {
		name, line string
		code       int    // 0: a success
		id         string // the id of the answer
	}{
		{"not JSON", `{oops`, -32700, "null"},
		{"a number", `42`, -32600, "null"},
		{"a string", `"x"`, -32600, "null"},
		{"null", `null`, -32600, "null"},
		{"an object that is no message", `{"hello":1}`, -32600, "null"},
		{"a bad jsonrpc tag", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, "5"},
		{"no jsonrpc tag", `{"id":5,"method":"ping"}`, -32600, "5"},
		{"an empty batch", `[]`, -32600, "null"},
		{"method as a number", `{"jsonrpc":"2.0","id":6,"method":7}`, -32600, "6"},
		{"id an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, "null"},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
		{"nesting over 1,000 levels", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + deep + `}}`, -32600, "null"},
		{"a stray byte", "\xff", -32700, "null"},
		{"invalid UTF-8 in a string (left to the tool)", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", 0, "9"},
		{"invalid UTF-8 in the id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}", -32600, "null"},
		{"two messages on one line", `{"jsonrpc":"2.0","id":10,"method":"ping"}{"jsonrpc":"2.0","id":11,"method":"ping"}`, -32700, "null"},
		{"a request and a response at once", `{"jsonrpc":"2.0","id":12,"method":"ping","result":{}}`, -32600, "12"},
		{"params a string", `{"jsonrpc":"2.0","id":13,"method":"ping","params":"x"}`, -32600, "13"},
		{"a leading byte order mark", "\xef\xbb\xbf" + `{"jsonrpc":"2.0","id":14,"method":"ping"}`, 0, "14"},
		{"a CRLF line", `{"jsonrpc":"2.0","id":15,"method":"ping"}` + "\r", 0, "15"},
		{"an unknown method", `{"jsonrpc":"2.0","id":16,"method":"no/such"}`, -32601, "16"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w.t = t
			w.send(tc.line)
			msg := w.recv()
			assert.Equal(t, tc.code, errorCode(t, msg), "%v", msg)
			assert.Equal(t, tc.id, string(msg["id"]))
			id := fmt.Sprint(1000 + i)
			w.send(callLine(id, "read", map[string]any{"file_path": "a.txt"}))
			msg = w.recv()
			require.Equal(t, id, string(msg["id"]))
			assert.Contains(t, wireText(t, msg), "1: alpha")
		})
	}

	t.Run("a line over 16 MiB", func(t *testing.T) {
		w.t = t
		w.send(`{"jsonrpc":"2.0","id":17,"method":"ping","params":{"x":"` + strings.Repeat("a", 16<<20) + `"}}`)
		msg := w.recv()
		assert.Equal(t, -32600, errorCode(t, msg))
		assert.Equal(t, "null", string(msg["id"]))
		w.send(callLine("18", "read", map[string]any{"file_path": "a.txt"}))
		assert.Equal(t, "18", string(w.recv()["id"]))
	})
	t.Run("blank lines", func(t *testing.T) {
		w.t = t
		w.send("")
		w.send("   \t")
		w.send(callLine("19", "read", map[string]any{"file_path": "a.txt"}))
		assert.Equal(t, "19", string(w.recv()["id"]), "blank lines are not answered")
	})
}

// Ids come back exactly as sent (no float64 round trip), and a duplicate id in flight is refused.
func TestServeEchoesIdsExactly(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	w := startWire(t, "--cwd", dir)
	w.initialize("2025-11-25")
	for _, id := range []string{"9007199254740993", "9223372036854775809", "1e300", "1e400", "1.2", "1.7", "-0", `"s"`, `"\u00e9"`, `""`, "0"} {
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		msg := w.recv()
		assert.Equal(t, id, string(msg["id"]))
		assert.Zero(t, errorCode(t, msg), "%v", msg)
	}
}

// A batch is answered as one array once every call in it is answered; rejected elements get their
// errors in it. Batches go away with 2025-06-18.
func TestServeBatches(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	old := startWire(t, "--cwd", dir)
	old.initialize("2025-03-26")
	old.send(`[` + callLine("1", "read", map[string]any{"file_path": "a.txt"}) + `,{"jsonrpc":"2.0","method":"notifications/x"},42,` +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	select {
	case line := <-old.lines:
		var batch []map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(line, &batch), "%s", line)
		require.Len(t, batch, 3)
		assert.Equal(t, "1", string(batch[0]["id"]))
		assert.Contains(t, wireText(t, batch[0]), "1: alpha")
		assert.Equal(t, "null", string(batch[1]["id"]))
		assert.Equal(t, -32600, errorCode(t, batch[1]))
		assert.Equal(t, "2", string(batch[2]["id"]))
	case <-time.After(20 * time.Second):
		t.Fatal("no batch answer")
	}

	w := startWire(t, "--cwd", dir)
	w.initialize("2025-06-18")
	w.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	msg := w.recv()
	assert.Equal(t, -32600, errorCode(t, msg))
	w.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.Equal(t, "2", string(w.recv()["id"]))
}

// At the end of the input the calls in flight are finished and answered before the server exits
// (status 0): initialize and 50 writes followed by EOF get 51 answers, and every file is written.
func TestServeHalfCloseAnswersEveryCall(t *testing.T) {
	dir := realTemp(t)
	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := range 50 {
		in.WriteString(callLine(fmt.Sprint(i+1), "write", map[string]any{"file_path": fmt.Sprintf("f%02d.txt", i), "content": "x\n"}) + "\n")
	}
	out, stderr, code := runHarness(t, in.String(), "serve", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	answered := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var msg map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &msg), line)
		answered[string(msg["id"])] = true
	}
	assert.Len(t, answered, 51)
	for i := range 50 {
		assert.FileExists(t, filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)))
		assert.True(t, answered[fmt.Sprint(i+1)], "call %d answered", i+1)
	}
}

// A call whose id is still in flight is refused, not silently dropped; the first call completes.
func TestServeRefusesADuplicateIdInFlight(t *testing.T) {
	ws := realTemp(t)
	w := startWire(t, "--profile", "sandboxed", "--cwd", ws)
	w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"wire","version":"0"}}}`)
	w.recv()
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	outside := filepath.Join(os.Getenv("HOME"), fmt.Sprintf(".cordon-dup-%d", time.Now().UnixNano()))
	t.Cleanup(func() { _ = os.Remove(outside) })
	// The escalation waits for the user's answer: the call stays in flight.
	w.send(callLine("7", "write", map[string]any{"file_path": outside, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "test"}))
	ask := w.recv()
	require.Equal(t, `"elicitation/create"`, string(ask["method"]), "%v", ask)
	w.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	dup := w.recv()
	assert.Equal(t, "7", string(dup["id"]))
	assert.Equal(t, -32600, errorCode(t, dup))
	w.send(`{"jsonrpc":"2.0","id":` + string(ask["id"]) + `,"result":{"action":"decline"}}`)
	msg := w.recv()
	assert.Equal(t, "7", string(msg["id"]))
	assert.Equal(t, `Error: the user rejected escalating this operation to "danger-full-access"`, wireText(t, msg))
	assert.NoFileExists(t, outside)
}
