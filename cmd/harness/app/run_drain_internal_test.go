package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// deafEngine is fakeEngine with a tool "deaf" whose call ignores its context until release closes
// (a call stuck in a system call).
type deafEngine struct {
	*fakeEngine
	started chan struct{}
	release chan struct{}
}

func (d *deafEngine) Call(ctx context.Context, sess session, tool string, args json.RawMessage) outcome {
	if tool != "deaf" {
		return d.fakeEngine.Call(ctx, sess, tool, args)
	}
	close(d.started)
	<-d.release
	return outcome{}
}

// TestRunEndsPastTheDrainBound: when the context ends (SIGTERM) while a call ignores it, run gives
// the call the drain bound, then returns without it and ends its sessions.
func TestRunEndsPastTheDrainBound(t *testing.T) {
	eng := newDeafEngine()
	defer close(eng.release)
	r := newRunner(eng, nil)
	r.limits.drain = time.Millisecond
	in, inw := io.Pipe()
	defer inw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- r.serve(ctx, in, &out) }()
	go func() { _, _ = io.WriteString(inw, `{"id":1,"tool":"deaf","session":"s"}`+"\n") }()
	<-eng.started
	cancel()
	select {
	case err := <-done:
		require.True(t, errors.Is(err, context.Canceled), "err = %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("run waited for a call deaf to cancellation")
	}
	require.Empty(t, out.String(), "the abandoned call is not answered")
	eng.mu.Lock()
	defer eng.mu.Unlock()
	require.Equal(t, []string{"s"}, eng.ended, "its session is ended")
}

func (d *deafEngine) Tools() []toolInfo {
	return append(d.fakeEngine.Tools(), toolInfo{Name: "deaf", Description: "Never answers.", InputSchema: json.RawMessage(`{"type":"object"}`)})
}

// stopDuringDeafCall starts connect's serving (serve, returning when it does), calls "deaf" through
// the client connect opens, ends the context once the call runs, and returns what serve returned;
// a serve still running 20 s later fails the test.
func stopDuringDeafCall(t *testing.T, eng *deafEngine, serve func(context.Context) error, connect func() (*mcp.ClientSession, error)) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	cs, err := connect()
	require.NoError(t, err)
	defer func() {
		close(eng.release) // the abandoned call returns, so the connection can close
		_ = cs.Close()
	}()
	go func() { _, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "deaf"}) }()
	<-eng.started
	cancel()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("serve waited for a call deaf to cancellation")
		return nil
	}
}

func newDeafEngine() *deafEngine {
	return &deafEngine{fakeEngine: newFakeEngine(), started: make(chan struct{}), release: make(chan struct{})}
}

// TestServeEndsPastTheDrainBound: serve on a connection whose context ends while a call ignores it
// gives the call the drain bound, then returns.
func TestServeEndsPastTheDrainBound(t *testing.T) {
	eng := newDeafEngine()
	ct, st := mcp.NewInMemoryTransports()
	mh := newMCPHost(eng, hostConfig{version: "test", drain: time.Millisecond})
	err := stopDuringDeafCall(t, eng, func(ctx context.Context) error { return mh.serveConn(ctx, st) }, func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	})
	require.True(t, errors.Is(err, context.Canceled), "err = %v", err)
}

// TestHTTPServeEndsPastTheDrainBound: serve --http stopping while a call ignores its cancellation
// gives the call the drain bound, then returns.
func TestHTTPServeEndsPastTheDrainBound(t *testing.T) {
	eng := newDeafEngine()
	mh := newMCPHost(eng, hostConfig{version: "test", shared: true, drain: time.Millisecond})
	defer mh.close()
	f := &flags{http: "127.0.0.1:0", maxBody: defaultMaxBody, httpBounds: defaultHTTPBounds(defaultMaxBody),
		maxSessions: defaultHTTPMaxSessions, sessionIdle: time.Minute}
	ln, err := net.Listen("tcp", f.http)
	require.NoError(t, err)
	srv := newHTTPServer(mh, f, nil, zaptest.NewLogger(t))
	err = stopDuringDeafCall(t, eng, func(ctx context.Context) error { return srv.serve(ctx, ln) }, func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	})
	require.NoError(t, err)
}
