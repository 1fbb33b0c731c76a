package mcphost

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// httpFixture is `serve --http` in process on a loopback port over the default (or sandboxed)
// composition, with a count of the sessions it ended (tools/session-ended).
type httpFixture struct {
	t       *testing.T
	ws      string
	url     string
	ended   atomic.Int32
	slowEnd atomic.Int64 // how long its tools/session-ended listener takes (ns)
	stop    context.CancelFunc
	done    chan error
	tokens  *Tokens
	srv     *httpServer
}

// httpFlags are what a test of the HTTP transport sets: its options and a token file.
type httpFlags struct {
	HTTPOptions
	tokenFile string
}

// fsText renders key of tool-fs's texts.json, the file the plugin embeds (docs/texts.md), with
// name, value pairs.
var fsText = texts.MustLoad("../plugins/toolfs/texts.json").MustRender

func startHTTP(t *testing.T, profile string, tweak func(*httpFlags)) *httpFixture {
	t.Helper()
	ws := t.TempDir()
	f := &httpFlags{HTTPOptions: DefaultHTTPOptions()}
	f.Addr = "127.0.0.1:0"
	if tweak != nil {
		tweak(f)
	}
	h := composeProfile(t, profile, ws, nil)
	eng, err := newToolsEngine(h.k)
	require.NoError(t, err)
	fx := &httpFixture{t: t, ws: ws, done: make(chan error, 1)}
	_, err = tools.SessionEnded.On(h.k.Root(), func(context.Context, *tools.Session) error {
		time.Sleep(time.Duration(fx.slowEnd.Load()))
		fx.ended.Add(1)
		return nil
	})
	require.NoError(t, err)
	if f.tokenFile != "" {
		fx.tokens, err = LoadTokens(f.tokenFile)
		require.NoError(t, err)
	}
	ln, err := net.Listen("tcp", f.Addr)
	require.NoError(t, err)
	fx.url = "http://" + ln.Addr().String()
	mh := newHost(eng, Config{Version: "test", Cwd: &ws})
	ctx, cancel := context.WithCancel(context.Background())
	fx.stop = cancel
	f.Tokens = fx.tokens
	fx.srv = newHTTPServer(mh, f.HTTPOptions, zaptest.NewLogger(t))
	go func() { fx.done <- fx.srv.serve(ctx, ln) }()
	t.Cleanup(func() {
		fx.shutdown()
		mh.close()
		h.close()
	})
	return fx
}

// shutdown stops the server (as SIGTERM does) and waits for serve to return.
func (fx *httpFixture) shutdown() {
	fx.stop()
	select {
	case err := <-fx.done:
		require.NoError(fx.t, err)
		fx.done <- nil
	case <-time.After(20 * time.Second):
		fx.t.Fatal("serve did not return within 20s of the stop")
	}
}

// bearer is an http.RoundTripper that adds a bearer token.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// connect opens an MCP session with the Go SDK client at the given protocol version.
func (fx *httpFixture) connect(version, token string, opts *mcp.ClientOptions) *mcp.ClientSession {
	fx.t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: fx.url + "/mcp", HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(fx.t, err)
	fx.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func httpCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res
}

// The stdio flow over HTTP, at both kinds of protocol version: read, an unread overwrite refused, a
// stale edit refused, an edit after a re-read.
func TestHTTPFlow(t *testing.T) {
	noLeaks(t)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			fx := startHTTP(t, "", nil)
			file := filepath.Join(fx.ws, "notes.txt")
			require.NoError(t, os.WriteFile(file, []byte("hello\nworld\n"), 0o644))
			cs := fx.connect(version, "", nil)
			require.Equal(t, version, cs.InitializeResult().ProtocolVersion)

			text, res := httpCall(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "x\n"})
			assert.True(t, res.IsError)
			assert.Equal(t, `Error: cannot modify "`+file+`": file has not been read — read the file, then retry`, text)
			text, _ = httpCall(t, cs, "read", map[string]any{"file_path": "notes.txt"})
			assert.Equal(t, fsText("read.envelope", "path", file, "body", "1: hello\n2: world\n\n"+fsText("read.footer.end", "total", "2")), text)
			require.NoError(t, os.WriteFile(file, []byte("hello\nthere\n"), 0o644))
			text, res = httpCall(t, cs, "edit", map[string]any{"file_path": "notes.txt", "old_string": "hello", "new_string": "HELLO"})
			assert.True(t, res.IsError)
			assert.Equal(t, `Error: cannot edit "`+file+`": file changed since it was read — re-read the file, then retry`+
				"\nWhat changed since the read (- as read, + now):\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read.", text)
			httpCall(t, cs, "read", map[string]any{"file_path": "notes.txt"})
			text, _ = httpCall(t, cs, "edit", map[string]any{"file_path": "notes.txt", "old_string": "hello", "new_string": "HELLO"})
			assert.Equal(t, fsText("edit.success", "path", file), text)
			got, _ := os.ReadFile(file)
			assert.Equal(t, "HELLO\nthere\n", string(got))
			require.NoError(t, cs.Close())
			fx.shutdown()
		})
	}
}

// Two sessions are two agents: one's read does not authorize the other's write.
func TestHTTPSessionsAreIsolated(t *testing.T) {
	fx := startHTTP(t, "", nil)
	require.NoError(t, os.WriteFile(filepath.Join(fx.ws, "a.txt"), []byte("a\n"), 0o644))
	a, b := fx.connect("2025-11-25", "", nil), fx.connect("2025-11-25", "", nil)
	httpCall(t, a, "read", map[string]any{"file_path": "a.txt"})
	_, res := httpCall(t, b, "write", map[string]any{"file_path": "a.txt", "content": "b\n"})
	assert.True(t, res.IsError, "b never read a.txt")
	_, res = httpCall(t, a, "write", map[string]any{"file_path": "a.txt", "content": "a2\n"})
	assert.False(t, res.IsError)
}

// Sessionless requests (2026-07-28) share their principal's session: a read in one request
// authorizes a write in the next; another principal's reads do not.
func TestHTTPSessionlessRequestsShareThePrincipal(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	require.NoError(t, os.WriteFile(tokens, []byte("# agents\nalice:alice-secret-0123456789\nbob:bob-secret-0123456789ab\n"), 0o600))
	fx := startHTTP(t, "", func(f *httpFlags) { f.tokenFile = tokens })
	require.NoError(t, os.WriteFile(filepath.Join(fx.ws, "a.txt"), []byte("a\n"), 0o644))
	alice := fx.connect("2026-07-28", "alice-secret-0123456789", nil)
	bob := fx.connect("2026-07-28", "bob-secret-0123456789ab", nil)
	httpCall(t, alice, "read", map[string]any{"file_path": "a.txt"})
	_, res := httpCall(t, bob, "write", map[string]any{"file_path": "a.txt", "content": "bob\n"})
	assert.True(t, res.IsError, "bob's requests are not alice's")
	alice2 := fx.connect("2026-07-28", "alice-secret-0123456789", nil)
	_, res = httpCall(t, alice2, "write", map[string]any{"file_path": "a.txt", "content": "alice\n"})
	assert.False(t, res.IsError, "alice's read authorizes alice's write, from any connection")
}

// A session ends once, whether by DELETE, by the idle timeout or at shutdown.
func TestHTTPSessionEnds(t *testing.T) {
	t.Run("DELETE", func(t *testing.T) {
		fx := startHTTP(t, "", nil)
		cs := fx.connect("2025-11-25", "", nil)
		httpCall(t, cs, "read", map[string]any{"file_path": "missing.txt"})
		require.NoError(t, cs.Close()) // the SDK client sends DELETE
		require.Eventually(t, func() bool { return fx.ended.Load() == 1 }, 10*time.Second, 10*time.Millisecond)
		fx.shutdown()
		assert.Equal(t, int32(1), fx.ended.Load(), "ended once")
	})
	t.Run("idle", func(t *testing.T) {
		fx := startHTTP(t, "", func(f *httpFlags) { f.SessionIdle = 200 * time.Millisecond })
		cs := fx.connect("2025-11-25", "", &mcp.ClientOptions{})
		httpCall(t, cs, "read", map[string]any{"file_path": "missing.txt"})
		require.Eventually(t, func() bool { return fx.ended.Load() == 1 }, 10*time.Second, 10*time.Millisecond)
		fx.shutdown()
		assert.Equal(t, int32(1), fx.ended.Load(), "ended once")
	})
	t.Run("shutdown", func(t *testing.T) {
		fx := startHTTP(t, "", nil)
		for range 3 {
			cs := fx.connect("2025-11-25", "", nil)
			httpCall(t, cs, "read", map[string]any{"file_path": "missing.txt"})
		}
		fx.shutdown()
		assert.Equal(t, int32(3), fx.ended.Load(), "every session ended, once")
	})
}

func rawPost(t *testing.T, url string, header map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// The guards answer with the status codes of the contract.
func TestHTTPGuards(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	require.NoError(t, os.WriteFile(tokens, []byte("alice:alice-secret-0123456789\n"), 0o600))
	fx := startHTTP(t, "", func(f *httpFlags) {
		f.tokenFile = tokens
		f.MaxBody = 1 << 10
		f.MaxSessions = 1
		f.AllowOrigins = []string{"https://app.example"}
	})
	ok := map[string]string{"Authorization": "Bearer alice-secret-0123456789"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range ok {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	res := rawPost(t, fx.url+"/mcp", nil, initializeBody)
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	assert.True(t, strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer"), res.Header)
	res = rawPost(t, fx.url+"/mcp", map[string]string{"Authorization": "Bearer wrong-token-0123456789"}, initializeBody)
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)

	res = rawPost(t, fx.url+"/mcp", with(map[string]string{"Host": "evil.example:80"}), initializeBody)
	assert.Equal(t, http.StatusForbidden, res.StatusCode, "a foreign Host (DNS rebinding)")
	res = rawPost(t, fx.url+"/mcp", with(map[string]string{"Origin": "https://evil.example"}), initializeBody)
	assert.Equal(t, http.StatusForbidden, res.StatusCode, "a foreign Origin")

	res = rawPost(t, fx.url+"/mcp", ok, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("x", 2<<10)+`"}}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)

	res = rawPost(t, fx.url+"/mcp", with(map[string]string{"Origin": "https://app.example"}), initializeBody)
	assert.Equal(t, http.StatusOK, res.StatusCode, "an allowed Origin")
	require.NotEmpty(t, res.Header.Get("Mcp-Session-Id"))
	_, _ = io.Copy(io.Discard, res.Body)
	sid := res.Header.Get("Mcp-Session-Id")
	res = rawPost(t, fx.url+"/mcp", with(map[string]string{"Mcp-Session-Id": sid}), `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	assert.Less(t, res.StatusCode, 300)
	res = rawPost(t, fx.url+"/mcp", with(map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}), `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	_, _ = io.Copy(io.Discard, res.Body)

	res = rawPost(t, fx.url+"/mcp", ok, initializeBody)
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "past --max-sessions")

	hres, err := http.Get(fx.url + "/healthz")
	require.NoError(t, err)
	body, _ := io.ReadAll(hres.Body)
	_ = hres.Body.Close()
	assert.Equal(t, "ok\n", string(body))
}

// SIGTERM with calls in flight: the calls finish (up to the drain timeout) and are answered, then
// every session ends and serve returns.
func TestHTTPShutdownLetsCallsFinish(t *testing.T) {
	noLeaks(t)
	fx := startHTTP(t, "sandboxed", nil)
	release := make(chan struct{})
	asked := make(chan struct{}, 1)
	cs := fx.connect("2025-11-25", "", &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked <- struct{}{}
			<-release
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	outside := filepath.Join(os.TempDir(), "..", fmt.Sprintf("cordon-http-%d", time.Now().UnixNano()))
	var wg sync.WaitGroup
	var text string
	wg.Go(func() {
		text, _ = httpCall(t, cs, "write", map[string]any{"file_path": outside, "content": "x\n",
			"sandbox_permissions": "danger-full-access", "justification": "test"})
	})
	<-asked
	stopped := make(chan struct{})
	go func() {
		fx.shutdown()
		close(stopped)
	}()
	time.Sleep(100 * time.Millisecond)
	close(release) // the user answers while the server drains
	wg.Wait()
	<-stopped
	assert.Equal(t, `Error: the user rejected escalating this operation to "danger-full-access"`, text)
	assert.Equal(t, int32(1), fx.ended.Load())
}

// TestHTTPShutdownReturnsAfterEverySessionEnded: serve returns once every session it served has
// ended (tools/session-ended has run), not once the connection is forgotten: a slow listener on
// the end is waited for.
func TestHTTPShutdownReturnsAfterEverySessionEnded(t *testing.T) {
	fx := startHTTP(t, "", nil)
	fx.slowEnd.Store(int64(200 * time.Millisecond))
	cs := fx.connect("2025-11-25", "", nil)
	text, _ := httpCall(t, cs, "glob", map[string]any{"pattern": "*"})
	require.NotEmpty(t, text)
	fx.shutdown()
	assert.Equal(t, int32(1), fx.ended.Load())
}

// noLeaks checks, after every cleanup of the test (the server, the composition, the clients), that
// no goroutine it started is left.
func noLeaks(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

// An embedder's own http.Server serves NewHTTP's Handler: /healthz answers, and /mcp is guarded
// (a browser Origin that is not allowed is refused).
func TestHTTPHandlerForAnEmbeddersServer(t *testing.T) {
	h := composeProfile(t, "", t.TempDir(), nil)
	defer h.close()
	o := DefaultHTTPOptions()
	o.Addr = "127.0.0.1:0"
	srv, err := NewHTTP(h.k.Root(), Config{Version: "test"}, o)
	require.NoError(t, err)
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	res, err := http.Get(ts.URL + "/healthz")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	assert.Equal(t, "ok\n", string(body))
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Origin", "http://evil.example")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
}

// A kernel without a tools runtime is refused with ErrNoRuntime, by both constructors.
func TestNewWithoutRuntime(t *testing.T) {
	h := composeYAML(t, "plugins: [{name: fs-local}]", nil)
	defer h.close()
	_, err := New(h.k.Root(), Config{})
	assert.ErrorIs(t, err, ErrNoRuntime)
	_, err = NewHTTP(h.k.Root(), Config{}, DefaultHTTPOptions())
	assert.ErrorIs(t, err, ErrNoRuntime)
}
