package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/jsonlines"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// cmdServe serves MCP on stdio until the client disconnects or the context ends.
func cmdServe(ctx context.Context, e *env) error {
	h, err := compose(ctx, e.o, e.f, e.log)
	if err != nil {
		return err
	}
	defer h.close()
	if e.f.http.Addr != "" {
		return serveHTTP(ctx, e, h)
	}
	mh, err := mcphost.New(h.k.Root(), e.hostConfig())
	if err != nil {
		return fmt.Errorf("%s: %w", h.source, err)
	}
	defer mh.Close()
	logRoots(h, h.source)
	e.log.Info("ready: serving MCP on stdio", e.startFields(h, "stdio", zap.Strings("tools", mh.ToolNames()))...)
	if isTerminal(e.o.stdin) {
		// Run by hand, serve seems to hang: say what it waits for (docs/host.md "The start line").
		e.log.Info(fmt.Sprintf("waiting for an MCP client on standard input: an MCP client starts this command itself "+
			"('%[1]s setup CLIENT' writes its configuration); to try it by hand, paste "+
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"me","version":"0"}}}`+
			" and press Enter; Ctrl-D ends", e.o.name))
	}
	return mh.ServeStdio(ctx, e.o.stdin, e.o.stdout, mcphost.StdioOptions{
		MaxInFlight:   e.f.maxInFlight,
		MaxBatch:      e.f.maxBatch,
		MaxBatchBytes: int(e.f.maxBatchBytes),
		Rejected: func(code int64, msg string) {
			e.log.Warn("rejected a client message", zap.Int64("code", code), zap.String("reason", msg))
		},
	})
}

// startFields are the fields of a ready line: the version, the composition, the workspace, the
// transport, then more.
func (e *env) startFields(h *host, transport string, more ...zap.Field) []zap.Field {
	return append([]zap.Field{zap.String("version", e.o.version), zap.String("config", h.source),
		zap.String("workspace", e.f.workdir), zap.String("transport", transport)}, more...)
}

// isTerminal reports whether r is a terminal (a character device other than /dev/null).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}

// hostConfig is the MCP host's configuration from the command line. Without --cwd each
// connection's workspace follows its client's MCP roots (docs/host.md "Roots from the client").
func (e *env) hostConfig() mcphost.Config {
	return mcphost.Config{Version: e.o.version, Cwd: e.cwdHeader(), Model: e.f.model, Structured: e.f.structured,
		ClientRoots: e.f.roots.client(e.f.cwd == "", e.log)}
}

// serveHTTP serves MCP over Streamable HTTP until the context ends (SIGTERM), then stops gracefully.
func serveHTTP(ctx context.Context, e *env, h *host) error {
	o := e.f.http
	o.SessionIdle, o.MaxSessions, o.Log = e.f.sessionIdle, e.f.maxSessions, e.log.Named("http")
	if e.f.tokenFile != "" {
		var err error
		if o.Tokens, err = mcphost.LoadTokens(e.f.tokenFile); err != nil {
			return err
		}
	}
	srv, err := mcphost.NewHTTP(h.k.Root(), e.hostConfig(), o)
	if err != nil {
		return fmt.Errorf("%s: %w", h.source, err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	logRoots(h, h.source)
	// The URL comes first: scripts read it from this line.
	fields := append([]zap.Field{zap.String("url", "http://"+ln.Addr().String()+"/mcp")},
		e.startFields(h, "http", zap.Bool("authentication", o.Tokens != nil), zap.Strings("tools", srv.Host().ToolNames()))...)
	e.log.Info("ready: serving MCP over HTTP", fields...)
	return srv.Serve(ctx, ln)
}

// cmdRun executes the JSON-line protocol on stdin/stdout.
func cmdRun(ctx context.Context, e *env) error {
	h, err := compose(ctx, e.o, e.f, e.log)
	if err != nil {
		return err
	}
	defer h.close()
	r, err := jsonlines.New(h.k.Root(), jsonlines.Options{Cwd: e.cwdHeader(), Client: e.f.client,
		SessionIdle: e.f.sessionIdle, MaxSessions: e.f.maxSessions})
	if err != nil {
		return fmt.Errorf("%s: %w", h.source, err)
	}
	logRoots(h, h.source)
	e.log.Info("ready: reading JSON lines on stdin", e.startFields(h, "json-lines", zap.Strings("tools", toolNames(h)))...)
	// A denial offers an escalation only where --approve can answer it.
	err = r.Serve(tools.WithApprovalChannel(ctx, e.f.approve != ""), e.o.stdin, e.o.stdout)
	if ctx.Err() != nil {
		return nil
	}
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed) {
		e.log.Info("stdout closed: the reader went away", zap.Error(err))
		return nil
	}
	return err
}

// cmdTools prints the tool definitions as tools/list sends them, in registration order (the SDK
// sorts tools/list by name).
func cmdTools(ctx context.Context, e *env) error {
	h, err := compose(ctx, e.o, e.f, e.log)
	if err != nil {
		return err
	}
	defer h.close()
	mh, err := mcphost.New(h.k.Root(), mcphost.Config{Structured: e.f.structured})
	if err != nil {
		return fmt.Errorf("%s: %w", h.source, err)
	}
	defer mh.Close()
	return writeJSON(e.o.stdout, mh.Tools())
}

// toolNames lists the visible tools of a composition, for the ready line.
func toolNames(h *host) []string {
	rt, ok := tools.Service.Get(h.k.Root())
	if !ok {
		return nil
	}
	var names []string
	for _, d := range rt.List() {
		names = append(names, d.Name)
	}
	return names
}

// cmdPlugins prints the catalog: one module per line with the services it waits for.
func cmdPlugins(_ context.Context, e *env) error {
	catalog, err := buildCatalog(e.o)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, m := range catalog.Modules() {
		if len(m.Inject) == 0 {
			fmt.Fprintln(&b, m.ID)
			continue
		}
		deps := make([]string, len(m.Inject))
		for i, d := range m.Inject {
			deps[i] = d.Name()
		}
		fmt.Fprintf(&b, "%-24s needs: %s\n", m.ID, strings.Join(deps, ", "))
	}
	_, err = io.WriteString(e.o.stdout, b.String())
	return err
}

// cmdConfig composes the tree (so a bad composition fails here too) and prints it with each entry's
// state.
func cmdConfig(ctx context.Context, e *env) error {
	h, err := compose(ctx, e.o, e.f, e.log)
	if err != nil {
		return err
	}
	defer h.close()
	out, err := h.ld.Dump()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.o.stdout, "# %s\n", h.source)
	_, err = e.o.stdout.Write(out)
	return err
}

func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
