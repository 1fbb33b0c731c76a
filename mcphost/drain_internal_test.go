package mcphost

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/plugins/tools/engine/enginetest"
)

// stopDuringDeafCall starts connect's serving (serve, returning when it does), calls "deaf" through
// the client connect opens, ends the context once the call runs, and returns what serve returned;
// a serve still running 20 s later fails the test.
func stopDuringDeafCall(t *testing.T, eng *enginetest.Deaf, serve func(context.Context) error, connect func() (*mcp.ClientSession, error)) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	cs, err := connect()
	require.NoError(t, err)
	defer func() {
		close(eng.Release) // the abandoned call returns, so the connection can close
		_ = cs.Close()
	}()
	go func() { _, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "deaf"}) }()
	<-eng.Started
	cancel()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("serve waited for a call deaf to cancellation")
		return nil
	}
}

// TestServeEndsPastTheDrainBound: serve on a connection whose context ends while a call ignores it
// gives the call the drain bound, then returns.
func TestServeEndsPastTheDrainBound(t *testing.T) {
	eng := enginetest.NewDeaf()
	ct, st := mcp.NewInMemoryTransports()
	mh := newHost(eng, Config{Version: "test", drain: time.Millisecond})
	err := stopDuringDeafCall(t, eng, func(ctx context.Context) error { return mh.serveConn(ctx, st) }, func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	})
	require.True(t, errors.Is(err, context.Canceled), "err = %v", err)
}

// TestHTTPServeEndsPastTheDrainBound: serve --http stopping while a call ignores its cancellation
// gives the call the drain bound, then returns.
func TestHTTPServeEndsPastTheDrainBound(t *testing.T) {
	eng := enginetest.NewDeaf()
	mh := newHost(eng, Config{Version: "test", drain: time.Millisecond})
	defer mh.close()
	o := DefaultHTTPOptions()
	o.Addr, o.SessionIdle = "127.0.0.1:0", time.Minute
	ln, err := net.Listen("tcp", o.Addr)
	require.NoError(t, err)
	srv := newHTTPServer(mh, o, zaptest.NewLogger(t))
	err = stopDuringDeafCall(t, eng, func(ctx context.Context) error { return srv.serve(ctx, ln) }, func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	})
	require.NoError(t, err)
}
