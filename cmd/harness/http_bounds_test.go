package main_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// hang bounds every wait of these tests on a server that might never answer: reaching it fails the
// test (it is no measure of anything).
const hang = 20 * time.Second

// rawConn is one TCP connection to a server, spoken to by hand.
type rawConn struct {
	t *testing.T
	net.Conn
	r *bufio.Reader
}

// hostPort is the server's address.
func (s *httpServe) hostPort() string {
	return strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/mcp")
}

func (s *httpServe) dial(t *testing.T) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", s.hostPort())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.SetDeadline(time.Now().Add(hang)))
	return &rawConn{t: t, Conn: c, r: bufio.NewReader(c)}
}

// request writes one request with the given extra header lines (Host: 127.0.0.1 unless they name
// one) and body.
func (c *rawConn) request(method, path string, header []string, body string) {
	c.t.Helper()
	head := method + " " + path + " HTTP/1.1\r\n"
	if !strings.Contains(strings.Join(header, "\n"), "Host:") {
		head += "Host: 127.0.0.1\r\n"
	}
	for _, h := range header {
		head += h + "\r\n"
	}
	if body != "" {
		head += fmt.Sprintf("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n", len(body))
	}
	_, err := io.WriteString(c, head+"\r\n"+body)
	require.NoError(c.t, err)
}

// response reads one response whole.
func (c *rawConn) response() (*http.Response, string) {
	c.t.Helper()
	res, err := http.ReadResponse(c.r, nil)
	require.NoError(c.t, err)
	body, err := io.ReadAll(res.Body)
	require.NoError(c.t, err)
	return res, string(body)
}

// closedByServer reports whether the server closed the connection: the next read ends at EOF (or
// a reset), and not at the test's bound.
func (c *rawConn) closedByServer() bool {
	_, err := c.r.ReadByte()
	if errors.Is(err, os.ErrDeadlineExceeded) {
		c.t.Logf("the connection was still open after %v", hang)
	}
	return errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || err != nil && strings.Contains(err.Error(), "connection reset")
}

// trickle writes chunk to c every period until stop is called or a write fails (at most for hang).
func trickle(c net.Conn, chunk string, period time.Duration) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for range int(hang / period) {
			select {
			case <-done:
				return
			case <-time.After(period):
			}
			if _, err := io.WriteString(c, chunk); err != nil {
				return
			}
		}
	}()
	return sync.OnceFunc(func() { close(done); <-stopped })
}

// A client without a valid token must not hold connections: whatever it is answered (401 at /mcp,
// ok at /healthz, 404 elsewhere, 403 for a foreign Host), the server closes the connection after the
// answer. A client with a token keeps its connection alive.
func TestServeHTTPClosesUnauthenticatedConnections(t *testing.T) {
	const token = "alice-token-0123456789abcdef"
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", realTemp(t), "--token-file", writeTokens(t, "alice:"+token+"\n"))
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, c := range []struct {
		name, method, path string
		header             []string
		body               string
		status             int
	}{
		{"no token", "POST", "/mcp", nil, ping, http.StatusUnauthorized},
		{"wrong token", "POST", "/mcp", []string{"Authorization: Bearer wrong-token-0123456789"}, ping, http.StatusUnauthorized},
		{"healthz", "GET", "/healthz", nil, "", http.StatusOK},
		{"unknown path", "GET", "/nothing", nil, "", http.StatusNotFound},
		{"foreign Host", "POST", "/mcp", []string{"Authorization: Bearer " + token, "Host: evil.example"}, ping, http.StatusForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := s.dial(t)
			conn.request(c.method, c.path, c.header, c.body)
			res, _ := conn.response()
			assert.Equal(t, c.status, res.StatusCode)
			assert.True(t, res.Close, "Connection: close")
			assert.True(t, conn.closedByServer(), "the connection of a client without a token stays open")
		})
	}

	conn := s.dial(t)
	for range 2 {
		conn.request("GET", "/healthz", []string{"Authorization: Bearer " + token}, "")
		res, body := conn.response()
		assert.Equal(t, "ok\n", body)
		assert.False(t, res.Close, "a client with a token keeps its connection")
	}
}

// A kept-alive connection without a request for --idle-timeout is closed by the server.
func TestServeHTTPClosesIdleConnections(t *testing.T) {
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", realTemp(t), "--idle-timeout", "300ms")
	conn := s.dial(t)
	conn.request("GET", "/healthz", nil, "")
	res, body := conn.response()
	require.Equal(t, "ok\n", body)
	assert.False(t, res.Close)
	assert.True(t, conn.closedByServer(), "an idle connection stays open")
}

// A body sent too slowly (here one byte every 100 ms, against --min-body-rate 1KiB) is cut once
// --read-timeout (plus what the bytes received earned) is over: 408, and the connection closes. A
// client without a token that sends a body slowly gets its 401 and its connection closes too: the
// rest of its body is not waited for.
func TestServeHTTPCutsASlowBody(t *testing.T) {
	const token = "alice-token-0123456789abcdef"
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", realTemp(t), "--read-timeout", "1s", "--min-body-rate", "1KiB",
		"--token-file", writeTokens(t, "alice:"+token+"\n"))
	for _, c := range []struct {
		name, auth, body string
		status           int
	}{
		{"authenticated", "Authorization: Bearer " + token + "\r\n",
			"Request Timeout: the body did not arrive in time (--read-timeout, --min-body-rate)\n", http.StatusRequestTimeout},
		{"unauthenticated", "", "", http.StatusUnauthorized},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := s.dial(t)
			_, err := io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+c.auth+
				"Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{")
			require.NoError(t, err)
			stop := trickle(conn, " ", 100*time.Millisecond)
			defer stop()
			res, body := conn.response()
			assert.Equal(t, c.status, res.StatusCode)
			if c.body != "" {
				assert.Equal(t, c.body, body)
			}
			assert.True(t, conn.closedByServer(), "the slow body's connection stays open")
		})
	}
}

// --write-timeout is per write, not per response: a call whose approval is answered long after the
// timeout (its response stream idle meanwhile, and the session's GET stream too) still gets its result.
func TestServeHTTPWriteTimeoutSparesWaitingStreams(t *testing.T) {
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	s := startHTTPServe(t, "127.0.0.1:0", "--profile", "sandboxed", "--cwd", ws, "--write-timeout", "100ms")
	cs := s.connect(t, "2025-11-25", "", &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		time.Sleep(time.Second) // the user takes ten write timeouts to answer
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
	}})
	target := filepath.Join(out, "late.txt")
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file_path": target, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}})
	require.NoError(t, err)
	assert.Equal(t, created(target, 1), text(res))
	require.NoError(t, cs.Ping(ctx, nil), "the session's connection survived")
}

// At --max-conns a new connection takes the place of one not serving a request: one that never
// sent a request first (a client that connected and stays silent), else an idle one (the one idle
// longest: TestConnLimit). While
// every connection serves a request it waits (the server says so in its log) until one is done.
func TestServeHTTPLimitsConnections(t *testing.T) {
	full := regexp.MustCompile(`WARN\s+harness\.http\s+connection limit reached: a new connection takes the place of one not serving a request, or waits\s+\{"max-conns": 2\}`)
	healthz := func(c *rawConn) string {
		c.request("GET", "/healthz", nil, "")
		_, body := c.response()
		return body
	}
	t.Run("silent and idle", func(t *testing.T) {
		s := startHTTPServe(t, "127.0.0.1:0", "--cwd", realTemp(t), "--max-conns", "2")
		idle := s.dial(t)
		require.Equal(t, "ok\n", healthz(idle))
		silent := s.dial(t)
		third := s.dial(t)
		assert.Equal(t, "ok\n", healthz(third), "served at once")
		assert.True(t, silent.closedByServer(), "the silent connection made room")
		fourth := s.dial(t)
		assert.Equal(t, "ok\n", healthz(fourth))
		// Then one of the idle ones (the one idle longest: which, the server's timing decides) made room.
		evicted := 0
		for _, c := range []*rawConn{idle, third} {
			if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
				evicted++
				continue
			}
			if _, err := http.ReadResponse(c.r, nil); err != nil {
				evicted++
			}
		}
		assert.Equal(t, 1, evicted, "an idle connection made room")
		assert.Regexp(t, full, s.stderr.String())
	})
	t.Run("all serving", func(t *testing.T) {
		s := startHTTPServe(t, "127.0.0.1:0", "--cwd", realTemp(t), "--max-conns", "2",
			"--read-timeout", "1s", "--min-body-rate", "8KiB")
		var stops []func()
		var busy []*rawConn
		for range 2 { // each in a request whose body arrives slowly, but fast enough (10 KiB/s)
			c := s.dial(t)
			_, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
				"Accept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: 1000000\r\n\r\n")
			require.NoError(t, err)
			line, err := c.r.ReadString('\n') // the handler reads the body: it is serving
			require.NoError(t, err)
			require.Equal(t, "HTTP/1.1 100 Continue\r\n", line)
			_, _ = c.r.ReadString('\n')
			stops = append(stops, trickle(c, strings.Repeat(" ", 1<<10), 100*time.Millisecond))
			busy = append(busy, c)
		}
		defer func() {
			for _, stop := range stops {
				stop()
			}
		}()
		third := s.dial(t)
		third.request("GET", "/healthz", nil, "")
		require.Eventually(t, func() bool { return full.MatchString(s.stderr.String()) }, hang, 10*time.Millisecond, s.stderr.String())
		stops[0]()
		require.NoError(t, busy[0].Close())
		_, body := third.response()
		assert.Equal(t, "ok\n", body)
		stops[1]()
		res, _ := busy[1].response()
		assert.Equal(t, http.StatusRequestTimeout, res.StatusCode, "the other request was served on, never evicted")
	})
}

// With fewer descriptors than --max-conns needs, the limit is lowered to leave 64 for the rest, and
// the server says so.
func TestServeHTTPLowersMaxConnsBelowTheFileLimit(t *testing.T) {
	s := startHTTPServeCmd(t, exec.Command("bash", "-c", `ulimit -n 100 && exec "$@"`, "bash",
		harnessBin, "serve", "--http", "127.0.0.1:0", "--cwd", realTemp(t)))
	lowered := regexp.MustCompile(`WARN\s+harness\.http\s+--max-conns lowered below the limit on open files\s+\{"max-conns": 36\}`)
	require.Eventually(t, func() bool { return lowered.MatchString(s.stderr.String()) }, hang, 10*time.Millisecond, s.stderr.String())
}

// The bodies held at once are bounded by --max-body-total: while one request holds the whole
// budget (its body arriving slowly, but fast enough), another waits up to --read-timeout, then
// gets 503; once the budget is free again, the same request goes through.
func TestServeHTTPBoundsBodyBytesInFlight(t *testing.T) {
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", realTemp(t), "--max-body", "64KiB", "--max-body-total", "64KiB",
		"--read-timeout", "1s", "--min-body-rate", "1KiB")
	slow := s.dial(t)
	_, err := io.WriteString(slow, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: 65536\r\n\r\n")
	require.NoError(t, err)
	stop := trickle(slow, strings.Repeat(" ", 1<<10), 100*time.Millisecond) // each KiB earns a second
	defer stop()
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	post := func() (int, string) {
		c := s.dial(t)
		c.request("POST", "/mcp", nil, ping)
		res, body := c.response()
		return res.StatusCode, body
	}
	// The slow body's reservation may not be made yet when the first ping comes: retry until refused.
	var body string
	require.Eventually(t, func() bool {
		var status int
		status, body = post()
		return status == http.StatusServiceUnavailable
	}, hang, time.Millisecond)
	assert.Equal(t, "Service Unavailable: the server holds 65536 bytes of request bodies, its limit (--max-body-total)\n", body)
	stop()
	require.NoError(t, slow.Close())
	require.Eventually(t, func() bool {
		status, _ := post()
		return status != http.StatusServiceUnavailable
	}, hang, 10*time.Millisecond, "the budget is free once the slow request is gone")
}

// Under 2026-07-28 a request state is its principal's: another principal who echoes it, with an
// answer, is asked again and nothing is written; the state still serves its own principal.
func TestServeHTTPRequestStateIsThePrincipals(t *testing.T) {
	const alice, bob = "alice-token-0123456789abcdef", "bob-token-0123456789abcdefgh"
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	s := startHTTPServe(t, "127.0.0.1:0", "--profile", "sandboxed", "--cwd", ws,
		"--token-file", writeTokens(t, "alice:"+alice+"\nbob:"+bob+"\n"))
	opts := &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, // the test plays the client's part
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errors.New("not called: the test answers input requests itself")
		},
	}
	as, bs := s.connect(t, "2026-07-28", alice, opts), s.connect(t, "2026-07-28", bob, opts)
	target := filepath.Join(out, "alices.txt")
	args := map[string]any{"file_path": target, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}
	grant := mcp.InputResponseMap{"approval-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}}
	send := func(cs *mcp.ClientSession, p *mcp.CallToolParams) *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), hang)
		defer cancel()
		res, err := cs.CallTool(ctx, p)
		require.NoError(t, err)
		return res
	}

	first := send(as, &mcp.CallToolParams{Name: "write", Arguments: args})
	require.True(t, first.NeedsInput())
	require.NotEmpty(t, first.RequestState)

	res := send(bs, &mcp.CallToolParams{Name: "write", Arguments: args, InputResponses: grant, RequestState: first.RequestState})
	assert.True(t, res.NeedsInput(), "bob's answer with alice's state is asked again")
	assert.NoFileExists(t, target)

	res = send(as, &mcp.CallToolParams{Name: "write", Arguments: args, InputResponses: grant, RequestState: first.RequestState})
	require.False(t, res.NeedsInput())
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "x\n", readFile(t, target))
}
