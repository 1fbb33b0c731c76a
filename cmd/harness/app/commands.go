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

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/mcpstdio"
)

// cmdServe serves MCP on stdio until the client disconnects or the context ends.
func cmdServe(ctx context.Context, e *env) error {
	h, eng, err := composeEngine(ctx, e)
	if err != nil {
		return err
	}
	defer h.close()
	if e.f.http != "" {
		return serveHTTP(ctx, e, h, eng)
	}
	mh := newMCPHost(eng, hostConfig{version: e.o.version, cwd: e.cwdHeader(), structured: e.f.structured})
	defer mh.close()
	e.log.Info("ready: serving MCP on stdio", zap.String("config", h.source), zap.Strings("tools", toolNames(eng)))
	t := &mcpstdio.Transport{In: e.o.stdin, Out: nopWriteCloser{e.o.stdout}, Options: mcpstdio.Options{
		MaxInFlight:   e.f.maxInFlight,
		MaxBatch:      e.f.maxBatch,
		MaxBatchBytes: int(e.f.maxBatchBytes),
		Rejected: func(code int64, msg string) {
			e.log.Warn("rejected a client message", zap.Int64("code", code), zap.String("reason", msg))
		},
	}}
	err = mh.serveConn(ctx, t)
	if ctx.Err() != nil || isClosedErr(err) {
		return nil
	}
	return err
}

// serveHTTP serves MCP over Streamable HTTP until the context ends (SIGTERM), then stops gracefully.
func serveHTTP(ctx context.Context, e *env, h *host, eng *toolsEngine) error {
	var tokens *tokenSet
	if e.f.tokenFile != "" {
		var err error
		if tokens, err = loadTokens(e.f.tokenFile); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", e.f.http)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	mh := newMCPHost(eng, hostConfig{version: e.o.version, cwd: e.cwdHeader(), structured: e.f.structured, shared: true})
	defer mh.close()
	e.log.Info("ready: serving MCP over HTTP", zap.String("url", "http://"+ln.Addr().String()+"/mcp"),
		zap.Bool("authentication", tokens != nil), zap.String("config", h.source), zap.Strings("tools", toolNames(eng)))
	return newHTTPServer(mh, e.f, tokens, e.log.Named("http")).serve(ctx, ln)
}

// cmdRun executes the JSON-line protocol on stdin/stdout.
func cmdRun(ctx context.Context, e *env) error {
	h, eng, err := composeEngine(ctx, e)
	if err != nil {
		return err
	}
	defer h.close()
	e.log.Info("ready: reading JSON lines on stdin", zap.String("config", h.source), zap.Strings("tools", toolNames(eng)))
	r := newRunner(eng, e.cwdHeader())
	r.limits.idle, r.limits.maxSessions = e.f.sessionIdle, e.f.maxSessions
	err = r.serve(ctx, e.o.stdin, e.o.stdout)
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
	h, eng, err := composeEngine(ctx, e)
	if err != nil {
		return err
	}
	defer h.close()
	list := make([]*mcp.Tool, 0)
	for _, t := range eng.Tools() {
		list = append(list, mcpTool(t, e.f.structured))
	}
	return writeJSON(e.o.stdout, list)
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

func composeEngine(ctx context.Context, e *env) (*host, *toolsEngine, error) {
	h, err := compose(ctx, e.o, e.f, e.log)
	if err != nil {
		return nil, nil, err
	}
	eng, err := newToolsEngine(h.k)
	if err != nil {
		h.close()
		return nil, nil, fmt.Errorf("%s: %w", h.source, err)
	}
	return h, eng, nil
}

func toolNames(eng engine) []string {
	var names []string
	for _, t := range eng.Tools() {
		names = append(names, t.Name)
	}
	return names
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

// nopWriteCloser keeps the process's stdout open when the MCP connection closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// isClosedErr reports whether err only says that the client went away (EOF on stdin, a closed
// connection or a broken stdout pipe).
func isClosedErr(err error) bool {
	return err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE)
}
