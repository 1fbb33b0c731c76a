package enginetest

import (
	"context"
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// Deaf is Fake with a tool "deaf" whose call ignores its context until Release is closed (a call
// stuck in a system call); Started is closed when it starts.
type Deaf struct {
	*Fake
	Started chan struct{}
	Release chan struct{}
}

// NewDeaf returns a Deaf over a new Fake.
func NewDeaf() *Deaf {
	return &Deaf{Fake: New(), Started: make(chan struct{}), Release: make(chan struct{})}
}

func (d *Deaf) Call(ctx context.Context, sess engine.Session, tool string, args json.RawMessage) tools.Result {
	if tool != "deaf" {
		return d.Fake.Call(ctx, sess, tool, args)
	}
	close(d.Started)
	<-d.Release
	return tools.Result{}
}

func (d *Deaf) Tools() []engine.ToolInfo {
	return append(d.Fake.Tools(), engine.ToolInfo{Name: "deaf", Description: "Never answers.", InputSchema: json.RawMessage(`{"type":"object"}`)})
}
