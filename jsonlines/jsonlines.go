package jsonlines

import (
	"context"
	"io"
	"time"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// Options configure a Runner; zero fields take the defaults.
type Options struct {
	// Cwd is the cwd header a new session starts with (--cwd), nil for the provider's default.
	Cwd *string
	// Client is the client name every session records (--client): the result budget by client
	// applies as under MCP (docs/host.md "What each client shows the model").
	Client string
	// SessionIdle ends a session without calls for this long (--session-idle).
	SessionIdle time.Duration
	// MaxSessions is the number of sessions kept; a new one ends the least recently used (--max-sessions).
	MaxSessions int
}

// Runner executes the run protocol over the tools runtime of a kernel.
type Runner struct{ r *runner }

// New builds a Runner over the tools runtime root provides (tools.Service); it fails with
// engine.ErrNoRuntime's error when there is none.
func New(root *kernel.Context, o Options) (*Runner, error) {
	eng, err := engine.New(root)
	if err != nil {
		return nil, err
	}
	r := newRunner(eng, o.Cwd)
	r.client = o.Client
	if o.SessionIdle > 0 {
		r.limits.idle = o.SessionIdle
	}
	if o.MaxSessions > 0 {
		r.limits.maxSessions = o.MaxSessions
	}
	return &Runner{r}, nil
}

// Serve reads input lines from in until EOF or ctx ends, writing and flushing one output line per
// input line to out, in order. Every session it opened is ended before it returns.
func (r *Runner) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return r.r.serve(ctx, in, out)
}
