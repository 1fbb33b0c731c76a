package main_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// TestHTTPBoundsFigures measures what serve --http's bounds are for, on loopback, against the
// binary under test or, with CORDON_BOUNDS_BIN, another one (an older build, for the figures
// before): an authenticated call's latency while 200 unauthenticated connections sit idle, the
// server's peak RSS with 24 bodies of 31 MiB at once, and when a body sent one byte every 5 s is
// cut. It runs only with CORDON_BOUNDS=1 (docs/http.md, "Limits and stopping"):
//
//	CORDON_BOUNDS=1 go test -run TestHTTPBoundsFigures -v ./cmd/harness/
//
// CORDON_BOUNDS_NOFILE=N runs the server with N file descriptors (ulimit -n), as on a host whose
// limit is low. Every loop is bounded in count and time.
func TestHTTPBoundsFigures(t *testing.T) {
	if os.Getenv("CORDON_BOUNDS") != "1" {
		t.Skip("set CORDON_BOUNDS=1 to measure")
	}
	bin := harnessBin
	if b := os.Getenv("CORDON_BOUNDS_BIN"); b != "" {
		bin = b
	}
	nofile := envInt(t, "CORDON_BOUNDS_NOFILE", 0)
	start := func(t *testing.T, args ...string) *httpServe {
		argv := append([]string{bin, "serve", "--http", "127.0.0.1:0", "--cwd", realTemp(t)}, args...)
		if nofile > 0 {
			argv = append([]string{"bash", "-c", fmt.Sprintf(`ulimit -n %d && exec "$@"`, nofile), "bash"}, argv...)
		}
		return startHTTPServeCmd(t, exec.Command(argv[0], argv[1:]...))
	}
	t.Logf("binary %s, descriptors %s", bin, map[bool]string{true: strconv.Itoa(nofile), false: "inherited"}[nofile > 0])
	t.Run("idle", func(t *testing.T) { idleFigures(t, start) })
	t.Run("memory", func(t *testing.T) { memoryFigures(t, start) })
	t.Run("slowbody", func(t *testing.T) { slowBodyFigures(t, start) })
}

// idleFigures: 20 authenticated calls, each on a new connection, before and while 200 clients
// without a token hold a connection each after one GET /healthz, then also 200 that connect and send
// nothing; and how many connections the server holds open.
func idleFigures(t *testing.T, start func(*testing.T, ...string) *httpServe) {
	const token, idle, calls = "alice-token-0123456789abcdef", 200, 20
	s := start(t, "--token-file", writeTokens(t, "alice:"+token+"\n"))
	measure := func(label string) {
		hc := &http.Client{Transport: bearerTransport{token: token, base: &http.Transport{DisableKeepAlives: true}}}
		var took []time.Duration
		failed := 0
		for range calls {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			begin := time.Now()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "figures", Version: "0"}, nil).Connect(ctx,
				&mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
			if err == nil {
				_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "glob", Arguments: map[string]any{"pattern": "*"}})
				_ = cs.Close()
			}
			cancel()
			if err != nil {
				failed++
				continue
			}
			took = append(took, time.Since(begin))
		}
		slices.Sort(took)
		p50, max := time.Duration(0), time.Duration(0)
		if len(took) > 0 {
			p50, max = took[len(took)/2], took[len(took)-1]
		}
		t.Logf("%s: %d authenticated calls (connect + tools/call, each on a new connection): p50 %v, max %v, %d failed (5 s bound)",
			label, calls, p50.Round(time.Microsecond), max.Round(time.Microsecond), failed)
	}
	measure("no idle connections")
	var conns []net.Conn
	answered := 0
	for range idle {
		c, err := net.DialTimeout("tcp", s.hostPort(), 2*time.Second)
		if err != nil {
			break
		}
		conns = append(conns, c)
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			_ = res.Body.Close()
			answered++
		}
	}
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	time.Sleep(time.Second) // what the server closes, it closes at once
	t.Logf("%d clients without a token connected, %d answered; the server holds %d descriptors for sockets",
		len(conns), answered, socketFDs(t, s.cmd.Process.Pid))
	measure(fmt.Sprintf("%d idle unauthenticated connections", len(conns)))

	silent := 0
	for range idle { // connected, and never a byte sent
		c, err := net.DialTimeout("tcp", s.hostPort(), 2*time.Second)
		if err != nil {
			break
		}
		conns = append(conns, c)
		silent++
	}
	time.Sleep(time.Second)
	t.Logf("and %d clients connected that send nothing; the server holds %d descriptors for sockets",
		silent, socketFDs(t, s.cmd.Process.Pid))
	measure(fmt.Sprintf("and %d silent connections", silent))
}

// memoryFigures: the server's peak RSS (VmHWM) at start and after 24 concurrent 31 MiB bodies.
func memoryFigures(t *testing.T, start func(*testing.T, ...string) *httpServe) {
	const n, size = 24, 31 << 20
	s := start(t)
	pid := s.cmd.Process.Pid
	base := peakRSS(t, pid)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", size-64) + `"}}`)
	statuses := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	begin := time.Now()
	for range n {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
			status := fmt.Sprint(err)
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				status = res.Status
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("%d concurrent bodies of %d MiB in %v: statuses %v; server peak RSS %.0f MiB at start, %.0f MiB after",
		n, size>>20, time.Since(begin).Round(time.Millisecond), statuses, float64(base)/(1<<20), float64(peakRSS(t, pid))/(1<<20))
}

// slowBodyFigures: a POST that declares 1000 bytes and sends one every 5 s, watched for 75 s.
func slowBodyFigures(t *testing.T, start func(*testing.T, ...string) *httpServe) {
	s := start(t)
	c, err := net.Dial("tcp", s.hostPort())
	require.NoError(t, err)
	defer c.Close()
	begin := time.Now()
	_, err = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{")
	require.NoError(t, err)
	answer := make(chan string, 1)
	go func() {
		_ = c.SetReadDeadline(time.Now().Add(75 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			answer <- err.Error()
			return
		}
		b, _ := io.ReadAll(res.Body)
		answer <- fmt.Sprintf("%d %q", res.StatusCode, b)
	}()
	sent := 1
	for tick := time.NewTicker(5 * time.Second); ; {
		select {
		case a := <-answer:
			t.Logf("a body sent one byte every 5 s: the wait ended after %v and %d bytes: %s",
				time.Since(begin).Round(100*time.Millisecond), sent, a)
			return
		case <-tick.C:
			if _, err := c.Write([]byte(" ")); err == nil {
				sent++
			}
		}
	}
}

// socketFDs counts a process's open sockets.
func socketFDs(t *testing.T, pid int) int {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(target, "socket:") {
			n++
		}
	}
	return n
}
