package mcpstdio_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// directPipe serves an SDK server whose only tool, "sdk", answers "from the SDK", over a transport
// whose Direct takes the tools/call of "direct": it waits for release or its context, then answers
// "direct" (or fails with "boom" for the tool "fail").
type directPipe struct {
	*pipeServer
	offered atomic.Int32
	ended   chan error // the first direct runs' context errors when they return
}

func startDirect(t *testing.T, opt mcpstdio.Options, setup ...func(*mcpstdio.Transport)) *directPipe {
	t.Helper()
	p := &directPipe{pipeServer: &pipeServer{release: make(chan struct{})}, ended: make(chan error, 16)}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "sdk"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "from the SDK"}}}, nil, nil
	})
	tr := &mcpstdio.Transport{Options: opt}
	for _, f := range setup {
		f(tr)
	}
	tr.Direct = func(method string, params json.RawMessage) (func(context.Context) ([]byte, int, error), bool) {
		p.offered.Add(1)
		var call struct{ Name string }
		if method != "tools/call" || json.Unmarshal(params, &call) != nil || (call.Name != "direct" && call.Name != "fail") {
			return nil, false
		}
		return func(ctx context.Context) ([]byte, int, error) {
			p.hold(ctx)
			select { // the first runs' ends are kept for the tests that look
			case p.ended <- ctx.Err():
			default:
			}
			if call.Name == "fail" {
				return nil, 0, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "boom"}
			}
			b := append(make([]byte, mcpstdio.Room, 2*mcpstdio.Room+64), `{"content":[{"type":"text","text":"direct"}]}`...)
			return b, mcpstdio.Room, nil
		}, true
	}
	p.pipeClient = servePipe(t, s, tr)
	return p
}

func toolCall(id, name string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":{}}}`
}

func directCall(id string) string { return toolCall(id, "direct") }

// A call the Direct takes is answered from its run, with the client's id byte for byte; a call it
// declines is the SDK's.
func TestDirectAnswersWhatItTakes(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	p := startDirect(t, mcpstdio.Options{})
	close(p.release)
	p.send(t, toolCall("1.50", "direct"))
	line, err := p.out.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1.50,"result":{"content":[{"type":"text","text":"direct"}]}}`+"\n", line)
	p.send(t, toolCall(`"s"`, "sdk"))
	m := p.recv(t)
	assert.Equal(t, `"s"`, string(m["id"]))
	assert.Contains(t, string(m["result"]), "from the SDK")
	require.NoError(t, p.in.Close())
	require.NoError(t, <-p.done)
}

// A run's error is answered as the SDK answers a handler's error.
func TestDirectErrorIsAJSONRPCError(t *testing.T) {
	p := startDirect(t, mcpstdio.Options{})
	close(p.release)
	p.send(t, toolCall("7", "fail"))
	line, err := p.out.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"boom"}}`+"\n", line)
	require.NoError(t, p.in.Close())
	<-p.done
}

// Batch elements and notifications are never offered; calls before the handshake's end are.
func TestDirectIsOfferedSingleCallsOnly(t *testing.T) {
	p := startDirect(t, mcpstdio.Options{})
	close(p.release)
	before := p.offered.Load()
	p.send(t, `[`+toolCall("1", "direct")+`]`) // refused at 2025-11-25, without an offer
	p.recv(t)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`)
	p.send(t, toolCall("2", "sdk"))
	p.recv(t)
	assert.Equal(t, before+1, p.offered.Load(), "only the single call was offered")
	require.NoError(t, p.in.Close())
	<-p.done
}

// notifications/cancelled naming a direct call cancels its context (the SDK never hears of it), and
// the call is not answered, as a call the SDK runs is not. A second call with a live id is refused
// as a duplicate meanwhile.
func TestDirectCancel(t *testing.T) {
	p := startDirect(t, mcpstdio.Options{})
	p.send(t, toolCall(`"c"`, "direct"))
	for p.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	p.send(t, toolCall(`"c"`, "direct"))
	m := p.recv(t)
	assert.Contains(t, string(m["error"]), "still in flight")
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}`)
	assert.True(t, errors.Is(<-p.ended, context.Canceled))
	require.NoError(t, p.in.Close())
	rest, _ := io.ReadAll(p.out)
	assert.Empty(t, string(rest), "a cancelled call is not answered")
	<-p.done
}

// At the end of the input a direct call in flight finishes and is answered before the connection
// ends.
func TestDirectEndOfInput(t *testing.T) {
	p := startDirect(t, mcpstdio.Options{})
	p.send(t, toolCall("1", "direct"))
	for p.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, p.in.Close())
	time.AfterFunc(50*time.Millisecond, func() { close(p.release) })
	assert.Equal(t, "1", string(p.recv(t)["id"]))
	<-p.done
	assert.NoError(t, <-p.ended)
}

// Closing the connection cancels a direct call in flight, and the close returns once the call has
// returned, as the SDK's close waits for its own handlers.
func TestDirectCloseWaitsForTheCall(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	p := startDirect(t, mcpstdio.Options{})
	ss := <-p.session
	p.send(t, toolCall("1", "direct"))
	for p.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	go func() { _, _ = io.Copy(io.Discard, p.out) }()
	require.NoError(t, ss.Close())
	assert.Zero(t, p.running.Load(), "the call returned before Close did")
	assert.True(t, errors.Is(<-p.ended, context.Canceled))
	<-p.done
	_ = p.in.Close()
}

// A direct call that returns within the inline time runs on the reading goroutine: no other
// goroutine takes over the reading; one still running after it hands the reading over once, and
// the next message (here another call) is read and answered while it runs.
func TestDirectShortCallsStayOnTheReader(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var handovers atomic.Int32
	p := startDirect(t, mcpstdio.Options{}, func(tr *mcpstdio.Transport) { mcpstdio.OnHandover(tr, func() { handovers.Add(1) }) })
	close(p.release)
	for i := range 20 {
		p.send(t, directCall(strconv.Itoa(i)))
		assert.Equal(t, strconv.Itoa(i), string(p.recv(t)["id"]))
	}
	assert.Zero(t, handovers.Load(), "twenty short calls, no handover")

	p.release = make(chan struct{}) // the next direct call waits
	p.send(t, directCall(`"long"`))
	for p.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	p.send(t, toolCall(`"sdk"`, "sdk"))
	assert.Equal(t, `"sdk"`, string(p.recv(t)["id"]), "read and answered while the long call runs")
	assert.Equal(t, int32(1), handovers.Load())
	close(p.release)
	assert.Equal(t, `"long"`, string(p.recv(t)["id"]))
	require.NoError(t, p.in.Close())
	<-p.done
}

// The watch that hands a long call over parks when no call runs: a long call that comes after a
// quiet spell is still handed over (and the message after it read while it runs), a call that
// comes while the watch is parked wakes it, and the watch ends with the connection.
func TestDirectLongCallAfterIdleIsHandedOver(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var handovers atomic.Int32
	p := startDirect(t, mcpstdio.Options{}, func(tr *mcpstdio.Transport) { mcpstdio.OnHandover(tr, func() { handovers.Add(1) }) })
	close(p.release)
	p.send(t, directCall(`"short"`))
	assert.Equal(t, `"short"`, string(p.recv(t)["id"]))
	for round := range 2 {
		time.Sleep(20 * time.Millisecond) // ten ticks without a call: the watch parks
		p.release = make(chan struct{})
		id := `"long` + strconv.Itoa(round) + `"`
		p.send(t, directCall(id))
		for p.running.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		p.send(t, toolCall(`"sdk`+strconv.Itoa(round)+`"`, "sdk"))
		assert.Equal(t, `"sdk`+strconv.Itoa(round)+`"`, string(p.recv(t)["id"]), "read and answered while the long call runs")
		assert.Equal(t, int32(round+1), handovers.Load())
		close(p.release)
		assert.Equal(t, id, string(p.recv(t)["id"]))
		for p.running.Load() != 0 {
			time.Sleep(time.Millisecond)
		}
	}
	require.NoError(t, p.in.Close())
	<-p.done
}
