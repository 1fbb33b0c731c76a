package jsonlines

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools/engine/enginetest"
)

// TestRunEndsPastTheDrainBound: when the context ends (SIGTERM) while a call ignores it, run gives
// the call the drain bound, then returns without it and ends its sessions.
func TestRunEndsPastTheDrainBound(t *testing.T) {
	eng := enginetest.NewDeaf()
	defer close(eng.Release)
	r := newRunner(eng, nil)
	r.limits.drain = time.Millisecond
	in, inw := io.Pipe()
	defer inw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- r.serve(ctx, in, &out) }()
	go func() { _, _ = io.WriteString(inw, `{"id":1,"tool":"deaf","session":"s"}`+"\n") }()
	<-eng.Started
	cancel()
	select {
	case err := <-done:
		require.True(t, errors.Is(err, context.Canceled), "err = %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("run waited for a call deaf to cancellation")
	}
	require.Empty(t, out.String(), "the abandoned call is not answered")
	require.Equal(t, []string{"s"}, eng.Ended(), "its session is ended")
}
