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
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// ErrNoRuntime is returned by New when the kernel provides no tools runtime.
var ErrNoRuntime = engine.ErrNoRuntime

// New builds the MCP host of the tools runtime that the kernel context root provides
// (tools.Service; the runtime is looked up on every use, so a reloaded "tools" plugin is picked up).
// Close it when done.
func New(root *kernel.Context, cfg Config) (*Host, error) {
	eng, err := engine.New(root)
	if err != nil {
		return nil, err
	}
	return newHost(eng, cfg), nil
}

// Server is the host's MCP server, for a caller that connects its own transport (Serve does it
// with the host's session handling).
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

// StdioOptions bound a stdio connection (docs/host.md); zero fields take the defaults.
type StdioOptions struct {
	MaxInFlight   int // --max-inflight: calls in flight before no more input is read
	MaxBatch      int // --max-batch: messages in one JSON-RPC batch
	MaxBatchBytes int // --max-batch-bytes: answers held for one batch
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

// HTTPOptions are the options of the Streamable HTTP transport (docs/http.md); DefaultHTTPOptions
// has the defaults of `harness serve --http`.
type HTTPOptions struct {
	Addr         string   // --http: the address listened on (a loopback one also checks Host)
	Tokens       *Tokens  // --token-file; nil: no authentication
	AllowOrigins []string // --allow-origin: Origins allowed besides the server's own
	MaxSessions  int      // --max-sessions: sessions at once, 503 beyond
	// SessionIdle (--session-idle) ends a session after this long without requests.
	SessionIdle  time.Duration
	MaxBody      int64         // --max-body: request body limit, 413 beyond
	MaxBodyTotal int64         // --max-body-total: body bytes held across requests; beyond, wait, then 503
	MaxConns     int           // --max-conns: connections open at once
	ReadTimeout  time.Duration // --read-timeout: a request's headers, and its body before MinBodyRate extends it
	MinBodyRate  int64         // --min-body-rate: bytes a second that extend a body's deadline
	WriteTimeout time.Duration // --write-timeout: for the client to take each write of a response
	IdleTimeout  time.Duration // --idle-timeout: a kept-alive connection without a request is closed
	Log          *zap.Logger   // nil: no logging
}

// DefaultHTTPOptions are the defaults of `harness serve --http` (docs/http.md "Limits and stopping").
func DefaultHTTPOptions() HTTPOptions {
	return HTTPOptions{MaxSessions: 64, SessionIdle: 30 * time.Minute, MaxBody: 32 << 20, MaxBodyTotal: 128 << 20,
		MaxConns: 256, ReadTimeout: 30 * time.Second, MinBodyRate: 64 << 10, WriteTimeout: 30 * time.Second,
		IdleTimeout: time.Minute}
}

// HTTPServer is the MCP Streamable HTTP transport over one host, shared by every connection.
type HTTPServer struct {
	h *Host
	s *httpServer
}

// NewHTTP builds the HTTP transport of the tools runtime root provides: the MCP handler at /mcp
// (sessions for the protocol versions that have them, sessionless requests for 2026-07-28) behind
// authentication, Host and Origin checks and the request bounds, and GET /healthz. Close it when
// done.
func NewHTTP(root *kernel.Context, cfg Config, o HTTPOptions) (*HTTPServer, error) {
	eng, err := engine.New(root)
	if err != nil {
		return nil, err
	}
	cfg.shared = true
	h := newHost(eng, cfg)
	log := o.Log
	if log == nil {
		log = zap.NewNop()
	}
	return &HTTPServer{h: h, s: newHTTPServer(h, o, log)}, nil
}

// Host is the host the transport serves.
func (s *HTTPServer) Host() *Host { return s.h }

// Handler is the HTTP surface (/mcp and GET /healthz) with the request bounds, authentication, Host
// and Origin checks and id fidelity, for a caller that runs its own http.Server; the connection
// bounds (MaxConns, the timeouts) and the graceful stop are Serve's.
func (s *HTTPServer) Handler() http.Handler { return s.s.handler() }

// Serve serves on ln until ctx ends, then stops gracefully (docs/http.md "Limits and stopping").
func (s *HTTPServer) Serve(ctx context.Context, ln net.Listener) error { return s.s.serve(ctx, ln) }

// Close ends the host (Serve has already stopped the transport).
func (s *HTTPServer) Close() { s.h.close() }

// IsLoopbackHost reports whether a host (an IP or "localhost") can only be reached from this machine.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
