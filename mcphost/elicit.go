package mcphost

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type elicitorKey struct{}

// withElicitor records the MCP connection a call arrived on, so an approval prompt raised during the
// call can be sent to that client through elicitation.
func withElicitor(ctx context.Context, ss *mcp.ServerSession) context.Context {
	if ss == nil {
		return ctx
	}
	return context.WithValue(ctx, elicitorKey{}, ss)
}

// elicitorFrom returns the MCP connection of the call running under ctx, or nil.
func elicitorFrom(ctx context.Context) *mcp.ServerSession {
	ss, _ := ctx.Value(elicitorKey{}).(*mcp.ServerSession)
	return ss
}
