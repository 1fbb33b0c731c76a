package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/hosttest"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// httpServe is `harness serve --http ADDR` as a process, its URL read from the ready line.
type httpServe struct {
	cmd    *exec.Cmd
	url    string // http://HOST:PORT/mcp
	stderr *lockedBuffer
	done   chan struct{}
	code   int
}

var readyURL = regexp.MustCompile(`ready: serving MCP over HTTP\s+\{"url": "(http://[^"]+)"`)

// startHTTPServe starts `harness serve --http addr args...` and waits for its ready line.
func startHTTPServe(t *testing.T, addr string, args ...string) *httpServe {
	t.Helper()
	return startHTTPServeCmd(t, exec.Command(harnessBin, append([]string{"serve", "--http", addr}, args...)...))
}

// startHTTPServeCmd starts a `serve --http` command and waits for its ready line.
func startHTTPServeCmd(t *testing.T, cmd *exec.Cmd) *httpServe {
	t.Helper()
	s := &httpServe{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
	s.cmd.Stderr = s.stderr
	require.NoError(t, s.cmd.Start())
	go func() {
		err := s.cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			s.code = ee.ExitCode()
		} else if err != nil {
			s.code = -1
		}
		close(s.done)
	}()
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		<-s.done
	})
	require.Eventually(t, func() bool {
		m := readyURL.FindStringSubmatch(s.stderr.String())
		if m != nil {
			s.url = m[1]
		}
		return m != nil || s.exited()
	}, 20*time.Second, 5*time.Millisecond)
	require.NotEmpty(t, s.url, "no ready line:\n%s", s.stderr.String())
	return s
}

func (s *httpServe) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// signal sends sig to the server.
func (s *httpServe) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	require.NoError(t, s.cmd.Process.Signal(sig))
}

// wait waits up to d for the server to exit and returns its exit status.
func (s *httpServe) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-s.done:
		return s.code
	case <-time.After(d):
		t.Fatalf("the server did not exit within %v:\n%s", d, s.stderr.String())
		return -1
	}
}

// bearerTransport adds `Authorization: Bearer token` to every request.
type bearerTransport struct {
	token string
	base  http.RoundTripper // nil: http.DefaultTransport
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	if b.base == nil {
		return http.DefaultTransport.RoundTrip(r)
	}
	return b.base.RoundTrip(r)
}

// connect opens an MCP session with the Go SDK client at a protocol version (token "" sends none).
func (s *httpServe) connect(t *testing.T, version, token string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return s.connectAs(t, "http-e2e", version, token, opts)
}

// connectAs is connect with a client that names itself client in its clientInfo.
func (s *httpServe) connectAs(t *testing.T, client, version, token string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearerTransport{token: token}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "0"}, opts).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err, s.stderr.String())
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// post sends one JSON-RPC body to the server and returns the response (the caller closes its body).
func (s *httpServe) post(t *testing.T, header map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	return res
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

func writeTokens(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tokens")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

// An address other machines can reach needs bearer tokens: without --token-file it is a usage error
// (exit 2) that says why; with one the server starts and refuses requests without a token.
func TestServeHTTPOpenAddressNeedsTokens(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0"} {
		_, stderr, code := runHarness(t, "", "serve", "--http", addr, "--cwd", realTemp(t))
		assert.Equal(t, 2, code, addr)
		assert.Contains(t, stderr, fmt.Sprintf(`harness: usage: serve: --http %q is not a loopback address: anyone who can reach it `+
			`could read and write files as this user, so it needs --token-file (bearer tokens) to start`, addr))
		assert.NotContains(t, stderr, "ready:")
	}

	const token = "remote-token-0123456789abcdef"
	s := startHTTPServe(t, "0.0.0.0:0", "--cwd", realTemp(t), "--token-file", writeTokens(t, "ci:"+token+"\n"))
	s.url = "http://127.0.0.1" + s.url[strings.LastIndex(s.url, ":"):]
	res := s.post(t, nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	cs := s.connect(t, "2025-11-25", token, nil)
	require.NoError(t, cs.Ping(context.Background(), nil))
}

// A bad --token-file stops the start (exit 1) with a message naming the file and the line, never a
// token: not even the text of a line that is not name:token, which may well be a bare token.
func TestServeHTTPBadTokenFile(t *testing.T) {
	cases := []struct {
		name, content, want string
		secrets             []string
	}{
		{"short token", "# agents\nalice:short-secret\n", `line 2: the token of "alice" is shorter than 16 characters`, []string{"short-secret"}},
		{"bare token", "alice:alice-secret-0123456789\nbare-secret-0123456789abcdef\n", "line 2 is not name:token",
			[]string{"alice-secret-0123456789", "bare-secret-0123456789abcdef"}},
		{"no name", ":nameless-secret-0123456789\n", "line 1 is not name:token", []string{"nameless-secret-0123456789"}},
		{"named twice", "a:first-secret-0123456789\n\na:second-secret-0123456789\n", `line 3: "a" is named twice`,
			[]string{"first-secret-0123456789", "second-secret-0123456789"}},
		{"empty", "# nothing yet\n", "no name:token line", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := writeTokens(t, c.content)
			_, stderr, code := runHarness(t, "", "serve", "--http", "127.0.0.1:0", "--token-file", file, "--cwd", realTemp(t))
			assert.Equal(t, 1, code, stderr)
			assert.Contains(t, stderr, "harness: --token-file "+file+": "+c.want)
			assert.NotContains(t, stderr, "ready:")
			for _, secret := range c.secrets {
				assert.NotContains(t, stderr, secret)
			}
		})
	}
	_, stderr, code := runHarness(t, "", "serve", "--http", "127.0.0.1:0", "--token-file", filepath.Join(t.TempDir(), "missing"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "harness: --token-file: open ")
}

// SIGTERM with calls in flight (each waiting for its user's approval): new sessions are refused
// (503) while the calls finish, every call is answered, every session's stream ends (the debug access
// log records each one's GET), and the process exits 0.
func TestServeHTTPSIGTERMAnswersCallsInFlight(t *testing.T) {
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	s := startHTTPServe(t, "127.0.0.1:0", "--profile", "sandboxed", "--cwd", ws, "--log-level", "debug")
	const n = 3
	release := make(chan struct{})
	asked := make(chan struct{}, n)
	opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		<-release
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
	}}
	var (
		wg    sync.WaitGroup
		ids   [n]string
		texts [n]string
		errs  [n]error
	)
	for i := range n {
		cs := s.connect(t, "2025-11-25", "", opts)
		ids[i] = cs.ID()
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{
				"file_path": filepath.Join(out, fmt.Sprintf("f%d.txt", i)), "content": "x\n",
				"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}})
			if errs[i] = err; err == nil {
				texts[i] = text(res)
			}
		})
	}
	for range n {
		<-asked
	}
	s.signal(t, syscall.SIGTERM)
	require.Eventually(t, func() bool {
		res := s.post(t, nil, initialize)
		body, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		return res.StatusCode == http.StatusServiceUnavailable && string(body) == "Service Unavailable: the server is shutting down\n"
	}, 5*time.Second, 10*time.Millisecond, "a new session while stopping")
	close(release)
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		target := filepath.Join(out, fmt.Sprintf("f%d.txt", i))
		assert.Equal(t, created(target, 1), texts[i])
		assert.Equal(t, "x\n", readFile(t, target))
	}
	assert.Equal(t, 0, s.wait(t, 20*time.Second), s.stderr.String())
	for _, id := range ids {
		assert.Regexp(t, `"method": "GET", "path": "/mcp", "status": 200, "took": "[^"]+", "session": "`+id+`"`, s.stderr.String())
	}
}

// Under 2026-07-28 an approval is an input request in the call's result: while the user is asked the
// server holds nothing, so SIGTERM exits at once (0), and the client's retry with the answer fails
// (an error, never a hang).
func TestServeHTTPSIGTERMWhileASessionlessCallAsks(t *testing.T) {
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	s := startHTTPServe(t, "127.0.0.1:0", "--profile", "sandboxed", "--cwd", ws)
	release := make(chan struct{})
	asked := make(chan struct{}, 1)
	cs := s.connect(t, "2026-07-28", "", &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked <- struct{}{}
		<-release
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
	}})
	target := filepath.Join(out, "asked.txt")
	errc := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file_path": target,
			"content": "x\n", "sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}})
		errc <- err
	}()
	<-asked
	s.signal(t, syscall.SIGTERM)
	assert.Equal(t, 0, s.wait(t, 5*time.Second), s.stderr.String())
	close(release)
	err := <-errc
	require.Error(t, err)
	// A new connection is refused; a kept-alive one the client had not yet seen closed ends at EOF.
	assert.Regexp(t, `connection refused|EOF|connection reset`, err.Error())
	assert.NoFileExists(t, target)
}

// SIGTERM with a call whose approval is never answered: after the drain timeout (10 s) the call is
// cancelled, and the client still gets its answer before the stream ends; the process exits 0.
func TestServeHTTPSIGTERMAnswersAnAbandonedCall(t *testing.T) {
	t.Parallel()
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	s := startHTTPServe(t, "127.0.0.1:0", "--profile", "sandboxed", "--cwd", ws)
	res := s.post(t, nil, strings.Replace(initialize, `"capabilities":{}`, `"capabilities":{"elicitation":{}}`, 1))
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	session := map[string]string{"Mcp-Session-Id": res.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-11-25"}
	require.NotEmpty(t, session["Mcp-Session-Id"])
	res = s.post(t, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_ = res.Body.Close()

	target := filepath.Join(out, "abandoned.txt")
	args, err := json.Marshal(map[string]any{"file_path": target, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."})
	require.NoError(t, err)
	res = s.post(t, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write","arguments":`+string(args)+`}}`)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	events := hosttest.SSEMessages(res.Body)
	first := <-events
	require.JSONEq(t, `"elicitation/create"`, string(first["method"]), "the approval is asked first")

	s.signal(t, syscall.SIGTERM)
	var answer map[string]json.RawMessage
	for msg := range events {
		if string(msg["id"]) == "2" {
			answer = msg
		}
	}
	require.NotNil(t, answer, "the stream of tools/call ended without its answer")
	assert.JSONEq(t, `{"_meta":{"error":{"name":"SandboxEscalationError","code":"SANDBOX_ESCALATION_CANCELLED"}},"content":[{"type":"text","text":"Error: approval for escalating to \"danger-full-access\" was cancelled"}],"isError":true}`,
		string(answer["result"]))
	assert.Equal(t, 0, s.wait(t, 20*time.Second), s.stderr.String())
	assert.NoFileExists(t, target)
}

// At --log-level debug every request is in the access log with its principal, and no token is
// anywhere in the logs: not a valid one, not a wrong one, not one sent in the query string.
func TestServeHTTPLogsNoTokens(t *testing.T) {
	const alice, bob, wrong = "alice-token-0123456789abcdef", "bob-token-0123456789abcdefgh", "wrong-token-0123456789abcdef"
	ws := realTemp(t)
	writeFile(t, filepath.Join(ws, "a.txt"), "a\n")
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", ws, "--log-level", "debug",
		"--token-file", writeTokens(t, "alice:"+alice+"\nbob:"+bob+"\n"))
	for token, version := range map[string]string{alice: "2025-11-25", bob: "2026-07-28"} {
		cs := s.connect(t, version, token, nil)
		res := call(t, cs, "read", map[string]any{"file_path": "a.txt"})
		assert.False(t, res.IsError, text(res))
		require.NoError(t, cs.Close())
	}
	for _, header := range []map[string]string{
		{"Authorization": "Bearer " + wrong},
		{"Authorization": "bearer " + wrong},
		{"Authorization": "Basic " + wrong},
		{"Authorization": wrong},
	} {
		res := s.post(t, header, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		_ = res.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode, header)
	}
	req, err := http.NewRequest(http.MethodGet, s.url+"?access_token="+alice, nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "a token in the query string is no credential")

	s.signal(t, syscall.SIGTERM)
	assert.Equal(t, 0, s.wait(t, 20*time.Second))
	logs := s.stderr.String()
	assert.Contains(t, logs, `"status": 200, `)
	assert.Contains(t, logs, `"principal": "alice"`)
	assert.Contains(t, logs, `"principal": "bob"`)
	assert.Contains(t, logs, `"status": 401, `)
	for _, token := range []string{alice, bob, wrong} {
		assert.NotContains(t, logs, token)
	}
}
