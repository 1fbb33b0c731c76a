package mcphost

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// exposeTools is receiving middleware: the SDK's server, shared by every session, serves every
// tool, so tools/list keeps only the tools the request's session sees, and a tools/call of one it
// does not see is refused exactly as the SDK refuses an unknown tool.
func (h *Host) exposeTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.CallToolRequest:
			if r.Params != nil && !h.exposes(r.Session, r.Extra, r.ClientInfo(), r.Params.Name) {
				return nil, unknownTool(r.Params.Name)
			}
		case *mcp.ListToolsRequest:
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				sess := h.sessionFor(r.Session, r.Extra)
				recordClient(sess, r.ClientInfo())
				if ex, ok := sess.(engine.Exposer); ok {
					out := *lr
					out.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return !ex.Exposes(t.Name) })
					return &out, nil
				}
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// exposes reports whether the agent session of a request sees tool name, recording the request's
// client first (the expose rules match on it).
func (h *Host) exposes(ss *mcp.ServerSession, extra *mcp.RequestExtra, info *mcp.Implementation, name string) bool {
	sess := h.sessionFor(ss, extra)
	recordClient(sess, info)
	ex, ok := sess.(engine.Exposer)
	return !ok || ex.Exposes(name)
}

// unknownTool is the error the SDK answers a tools/call of a tool it does not serve with.
func unknownTool(name string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
}

// principalOf is the authenticated user of a request, "" when there is none.
func principalOf(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil {
		return extra.TokenInfo.UserID
	}
	return ""
}
