package mcpstdio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// pipeClient is the client's side of a server served over a Transport on pipes.
type pipeClient struct {
	in      *io.PipeWriter
	out     *bufio.Reader
	done    chan error              // the served session's end
	session chan *mcp.ServerSession // the served session, once connected
}

// servePipe serves s over tr on fresh pipes (it sets tr.In and tr.Out) and completes the
// client's handshake (declaring elicitation).
func servePipe(t *testing.T, s *mcp.Server, tr *mcpstdio.Transport) *pipeClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr.In, tr.Out = inR, outW
	c := &pipeClient{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1), session: make(chan *mcp.ServerSession, 1)}
	go func() {
		ss, err := s.Connect(context.Background(), tr, nil)
		if err == nil {
			c.session <- ss
			err = ss.Wait()
		}
		_ = outW.Close()
		c.done <- err
	}()
	c.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"0"}}}`)
	c.recv(t)
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// pipeServer serves an MCP server with a "wait" tool (it returns when release is closed) over
// the transport.
type pipeServer struct {
	*pipeClient
	release chan struct{}
	running atomic.Int32
	peak    atomic.Int32
}

// hold counts a running call (and the peak of them) until release is closed or ctx ends.
func (p *pipeServer) hold(ctx context.Context) {
	n := p.running.Add(1)
	for old := p.peak.Load(); n > old && !p.peak.CompareAndSwap(old, n); old = p.peak.Load() {
	}
	defer p.running.Add(-1)
	select {
	case <-p.release:
	case <-ctx.Done():
	}
}

func startPipe(t *testing.T, opt mcpstdio.Options, setup ...func(*mcpstdio.Transport)) *pipeServer {
	t.Helper()
	p := &pipeServer{release: make(chan struct{})}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		p.hold(ctx)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	tr := &mcpstdio.Transport{Options: opt}
	for _, f := range setup {
		f(tr)
	}
	p.pipeClient = servePipe(t, s, tr)
	return p
}

func (p *pipeClient) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(p.in, line+"\n")
	require.NoError(t, err)
}

func (p *pipeClient) recv(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	ch := make(chan string, 1)
	go func() {
		line, _ := p.out.ReadString('\n')
		ch <- line
	}()
	select {
	case line := <-ch:
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message")
		return nil
	}
}

func waitCall(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"wait","arguments":{}}}`
}

// bothKinds serves the "wait" tool as an SDK tool (startPipe) and as a direct call (startDirect),
// each with the spelling of its call line.
var bothKinds = map[string]func(*testing.T, mcpstdio.Options, ...func(*mcpstdio.Transport)) (*pipeServer, func(id string) string){
	"sdk": func(t *testing.T, o mcpstdio.Options, setup ...func(*mcpstdio.Transport)) (*pipeServer, func(string) string) {
		return startPipe(t, o, setup...), waitCall
	},
	"direct": func(t *testing.T, o mcpstdio.Options, setup ...func(*mcpstdio.Transport)) (*pipeServer, func(string) string) {
		return startDirect(t, o, setup...).pipeServer, directCall
	},
}

// At MaxInFlight calls in flight no further input is read: the reader waits for a slot with the
// third call in hand while two run, and never more than MaxInFlight calls run; direct calls take
// the same slots.
func TestBackPressure(t *testing.T) {
	for name, start := range bothKinds {
		t.Run(name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			waiting := make(chan struct{}, 1)
			p, call := start(t, mcpstdio.Options{MaxInFlight: 2}, func(tr *mcpstdio.Transport) {
				mcpstdio.OnSlotWait(tr, func() {
					select {
					case waiting <- struct{}{}:
					default:
					}
				})
			})
			for i := 1; i <= 3; i++ {
				p.send(t, call(strconv.Itoa(i)))
			}
			select { // the reader holds the third call and reads nothing more until a slot frees
			case <-waiting:
			case <-time.After(10 * time.Second):
				t.Fatal("the reader never waited for a slot")
			}
			for p.running.Load() < 2 {
				time.Sleep(time.Millisecond)
			}
			assert.Equal(t, int32(2), p.running.Load())
			close(p.release)
			ids := map[string]bool{}
			for range 3 {
				ids[string(p.recv(t)["id"])] = true
			}
			assert.Equal(t, map[string]bool{"1": true, "2": true, "3": true}, ids)
			assert.LessOrEqual(t, p.peak.Load(), int32(2))
			require.NoError(t, p.in.Close())
			<-p.done
		})
	}
}

// A client may reuse an id as soon as it has read the call's response: the id is never refused as
// still in flight then, for the SDK's calls and direct ones alike.
func TestIdIsFreeOnceAnswered(t *testing.T) {
	for name, start := range bothKinds {
		t.Run(name, func(t *testing.T) {
			p, call := start(t, mcpstdio.Options{})
			close(p.release)
			for range 200 {
				p.send(t, call("7"))
				m := p.recv(t)
				require.Equal(t, "7", string(m["id"]))
				require.NotContains(t, m, "error", "%s", m["error"])
			}
			require.NoError(t, p.in.Close())
			<-p.done
		})
	}
}

// A cancellation names the call by the client's id; it reaches the call, which is not answered.
func TestCancelReachesTheCall(t *testing.T) {
	p := startPipe(t, mcpstdio.Options{})
	p.send(t, waitCall(`"big-9007199254740993"`))
	for p.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"big-9007199254740993"}}`)
	deadline := time.Now().Add(5 * time.Second)
	for p.running.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.Zero(t, p.running.Load(), "the call saw its cancellation")
	require.NoError(t, p.in.Close())
	rest, _ := io.ReadAll(p.out)
	assert.Empty(t, string(rest), "a cancelled call is not answered")
	<-p.done
}

// At the end of the input the calls in flight finish and are answered before the connection ends.
func TestEndOfInputAnswersCallsInFlight(t *testing.T) {
	p := startPipe(t, mcpstdio.Options{})
	p.send(t, waitCall("1"))
	p.send(t, waitCall("2"))
	for p.running.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, p.in.Close())
	time.AfterFunc(50*time.Millisecond, func() { close(p.release) })
	ids := []string{string(p.recv(t)["id"]), string(p.recv(t)["id"])}
	assert.ElementsMatch(t, []string{"1", "2"}, ids)
	<-p.done
}

// A request the server sent the client fails when the client's input ends, so a call waiting for
// its answer finishes.
func TestEndOfInputFailsServerRequests(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	elicitErr := make(chan error, 1)
	mcp.AddTool(s, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "ok?", RequestedSchema: map[string]any{"type": "object"}})
		elicitErr <- err
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "after"}}}, nil, nil
	})
	c := servePipe(t, s, &mcpstdio.Transport{})
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{}}}`)
	line, _ := c.out.ReadString('\n')
	require.Contains(t, line, `"elicitation/create"`)
	require.NoError(t, c.in.Close())
	require.Error(t, <-elicitErr)
	line, _ = c.out.ReadString('\n')
	assert.Contains(t, line, `"id":1`)
	assert.Contains(t, line, `"after"`)
	<-c.done
}

// Buffers from Buffer are given back once their direct call's response is written and handed out
// again: pipelined calls whose large results are encoded into them each get exactly their own bytes,
// the envelope written around them in place.
func TestDirectBufferReuse(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	body := func(n int) string { return strings.Repeat(strconv.Itoa(n)+" ", 20_000) }
	tr := &mcpstdio.Transport{Direct: func(method string, params json.RawMessage) (func(context.Context) ([]byte, int, error), bool) {
		var p struct{ Arguments struct{ N int } }
		if method != "tools/call" || json.Unmarshal(params, &p) != nil {
			return nil, false
		}
		return func(context.Context) ([]byte, int, error) {
			text := body(p.Arguments.N)
			b := mcpstdio.Buffer(2*mcpstdio.Room + len(text) + 64)[:mcpstdio.Room]
			b = append(b, `{"content":[{"type":"text","text":"`...)
			b = append(append(b, text...), `"}]}`...)
			return slices.Grow(b, mcpstdio.Room), mcpstdio.Room, nil
		}, true
	}}
	c := servePipe(t, s, tr)
	const calls = 64
	go func() {
		for i := 1; i <= calls; i++ {
			_, _ = io.WriteString(c.in, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"tools/call","params":{"name":"x","arguments":{"N":`+strconv.Itoa(i)+`}}}`+"\n")
		}
	}()
	for range calls {
		line, err := c.out.ReadString('\n')
		require.NoError(t, err)
		var resp struct {
			ID     int
			Result struct{ Content []struct{ Text string } }
		}
		require.NoError(t, json.Unmarshal([]byte(line), &resp))
		require.Len(t, resp.Result.Content, 1)
		assert.Equal(t, body(resp.ID), resp.Result.Content[0].Text, "call %d", resp.ID)
	}
	require.NoError(t, c.in.Close())
}
