package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
	eng := &deafEngine{fakeEngine: newFakeEngine(), started: make(chan struct{}), release: make(chan struct{})}
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
