package mcphost

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// ErrNoRuntime is returned by New when the kernel provides no tools runtime.
var ErrNoRuntime = engine.ErrNoRuntime

// New builds the MCP host of the tools runtime that the kernel context root provides
// (tools.Service; the runtime is looked up on every use, so a reloaded "tools" plugin is picked up).
// One Host serves any number of connections: stdio (ServeStdio), any SDK transport (Serve) and
// Streamable HTTP (HTTP), at once. When the composition provides no approval service
// (tools.Approval), the host provides its own (Approver, with Config.Approvals as its fallback)
// until Close, so an escalation is asked of the MCP client rather than unavailable. Close it when
// done.
func New(root *kernel.Context, cfg Config) (*Host, error) {
	eng, err := engine.New(root)
	if err != nil {
		return nil, err
	}
	h := newHost(eng, cfg)
	if _, composed := tools.Approval.Get(root); !composed {
		if h.unapprove, err = tools.Approval.Provide(root, Approver(cfg.Approvals)); err != nil {
			h.close()
			return nil, err
		}
	}
	return h, nil
}

// Server is the host's MCP server (Config.Server when given), for a caller that connects its own
// transport (Serve does it with the host's session handling).
func (h *Host) Server() *mcp.Server { return h.server }

// Tools lists the visible tools as tools/list sends them, in registration order (the SDK sorts
// tools/list by name).
func (h *Host) Tools() []*mcp.Tool {
	list := make([]*mcp.Tool, 0)
	for _, t := range h.eng.Tools() {
		list = append(list, mcpTool(t, h.cfg.Structured))
	}
	return list
}

// ToolNames lists the names of the visible tools.
func (h *Host) ToolNames() []string { return engine.Names(h.eng) }

// Close stops following the runtime's tool changes and ends the sessions it still holds.
func (h *Host) Close() { h.close() }

// Serve serves one connection over t until the client goes away or ctx ends, and ends the
// connection's agent session. A client that goes away is a clean end (nil).
func (h *Host) Serve(ctx context.Context, t mcp.Transport) error {
	err := h.serveConn(ctx, t)
	if ctx.Err() != nil || isClosedErr(err) {
		return nil
	}
	return err
}

// StdioOptions bound what one stdio client may make the host hold (docs/host.md). The zero value is
// ready to use: a zero field takes its default.
type StdioOptions struct {
	// MaxInFlight is the number of calls in flight at which no more input is read until one is
	// answered (default: four per core the process may use).
	MaxInFlight int
	// MaxBatch is the most messages a JSON-RPC batch may hold; a larger one is refused whole
	// (default 1000).
	MaxBatch int
	// MaxBatchBytes is the size of the answers held for one batch at which its calls not yet
	// started are refused instead of run (default 8 MiB).
	MaxBatchBytes int
	// Rejected, when set, is told of each client message refused (its JSON-RPC code and why).
	Rejected func(code int64, msg string)
}

// ServeStdio serves MCP on in and out (newline-delimited JSON-RPC, framed and checked) as one
// connection, until in ends or ctx does. out is not closed.
func (h *Host) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, o StdioOptions) error {
	return h.Serve(ctx, &mcpstdio.Transport{In: in, Out: nopWriteCloser{out}, Options: mcpstdio.Options{
		MaxInFlight: o.MaxInFlight, MaxBatch: o.MaxBatch, MaxBatchBytes: o.MaxBatchBytes, Rejected: o.Rejected}})
}

// nopWriteCloser keeps the process's stdout open when the MCP connection closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// isClosedErr reports whether err only says that the client went away (EOF on stdin, a closed
// connection or a broken stdout pipe).
func isClosedErr(err error) bool {
	return err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE)
}

// HTTPOptions are the options of the Streamable HTTP transport (docs/http.md). The zero value is
// ready to use: a zero field takes its default (DefaultHTTPOptions), and with no Tokens the server
// authenticates nobody, which is safe only on a loopback address.
type HTTPOptions struct {
	// Addr is the address Serve's caller listens on; a loopback one also makes the server check
	// each request's Host header against it ("": no Host check beyond the Origin's).
	Addr string
	// Tokens are the bearer tokens a request must carry, each naming its user; nil: no
	// authentication.
	Tokens *Tokens
	// AllowOrigins are the browser Origins allowed besides the server's own.
	AllowOrigins []string
	// MaxSessions is the number of sessions open at once; a request that would open another is
	// refused with 503.
	MaxSessions int
	// SessionIdle ends a session after this long without requests.
	SessionIdle time.Duration
	// MaxBody is the largest request body; a larger one is refused with 413.
	MaxBody int64
	// MaxBodyTotal bounds the body bytes held across requests: beyond it a request waits, then is
	// refused with 503.
	MaxBodyTotal int64
	// MaxConns is the number of connections open at once (Serve only).
	MaxConns int
	// ReadTimeout is the time for a request's headers, and for its body until MinBodyRate extends it.
	ReadTimeout time.Duration
	// MinBodyRate is the bytes a second a body must arrive at for its deadline to be extended.
	MinBodyRate int64
	// WriteTimeout is the time the client has to take each write of a response.
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection without a request after this long (Serve only).
	IdleTimeout time.Duration
	// Log receives the server's access log and warnings; nil: no logging.
	Log *zap.Logger
}

// DefaultHTTPOptions are the defaults a zero HTTPOptions field takes (docs/http.md "Limits and
// stopping").
func DefaultHTTPOptions() HTTPOptions {
	return HTTPOptions{MaxSessions: 64, SessionIdle: 30 * time.Minute, MaxBody: 32 << 20, MaxBodyTotal: 128 << 20,
		MaxConns: 256, ReadTimeout: 30 * time.Second, MinBodyRate: 64 << 10, WriteTimeout: 30 * time.Second,
		IdleTimeout: time.Minute}
}

// withDefaults gives every zero (or negative) bound its default.
func (o HTTPOptions) withDefaults() HTTPOptions {
	d := DefaultHTTPOptions()
	orDefault(&o.MaxSessions, d.MaxSessions)
	orDefault(&o.SessionIdle, d.SessionIdle)
	orDefault(&o.MaxBody, d.MaxBody)
	orDefault(&o.MaxBodyTotal, d.MaxBodyTotal)
	orDefault(&o.MaxConns, d.MaxConns)
	orDefault(&o.ReadTimeout, d.ReadTimeout)
	orDefault(&o.MinBodyRate, d.MinBodyRate)
	orDefault(&o.WriteTimeout, d.WriteTimeout)
	orDefault(&o.IdleTimeout, d.IdleTimeout)
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return o
}

func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// HTTPServer is the MCP Streamable HTTP transport of a host, shared by every HTTP connection.
type HTTPServer struct {
	h     *Host
	s     *httpServer
	owned bool // made by NewHTTP: Close closes the host too
}

// HTTP is the host's Streamable HTTP transport: the MCP handler at /mcp (sessions for the protocol
// versions that have them, sessionless requests for 2026-07-28) behind authentication, Host and
// Origin checks and the request bounds, and GET /healthz. The host may serve stdio connections at
// the same time; each HTTP session, and under 2026-07-28 each authenticated user, has its own
// agent session.
func (h *Host) HTTP(o HTTPOptions) *HTTPServer {
	o = o.withDefaults()
	return &HTTPServer{h: h, s: newHTTPServer(h, o, o.Log)}
}

// NewHTTP builds a host (New) and its HTTP transport (Host.HTTP) in one step; the server's Close
// closes the host too.
func NewHTTP(root *kernel.Context, cfg Config, o HTTPOptions) (*HTTPServer, error) {
	h, err := New(root, cfg)
	if err != nil {
		return nil, err
	}
	s := h.HTTP(o)
	s.owned = true
	return s, nil
}

// Host is the host the transport serves.
func (s *HTTPServer) Host() *Host { return s.h }

// Handler is the HTTP surface (/mcp and GET /healthz) with the request bounds, authentication, Host
// and Origin checks and id fidelity, for a caller that runs its own http.Server; the connection
// bounds (MaxConns, IdleTimeout) and the graceful stop are Serve's.
func (s *HTTPServer) Handler() http.Handler { return s.s.handler() }

// Serve serves on ln until ctx ends, then stops gracefully (docs/http.md "Limits and stopping").
func (s *HTTPServer) Serve(ctx context.Context, ln net.Listener) error { return s.s.serve(ctx, ln) }

// Close ends the host when NewHTTP made it (Serve has already stopped the transport); a host from
// New is the caller's to close.
func (s *HTTPServer) Close() {
	if s.owned {
		s.h.close()
	}
}

// IsLoopbackHost reports whether a host (an IP or "localhost") can only be reached from this machine.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
