package mcphost

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// recordClient records in sess the clientInfo of an MCP call (per request under 2026-07-28, else
// the connection's initialize), which sizes the tools' result budget (docs/host.md "What each
// client shows the model"). Sessions of other engines are left alone.
func recordClient(sess engine.Session, info *mcp.Implementation) {
	if cr, ok := sess.(engine.ClientRecorder); ok && info != nil {
		cr.SetClient(info.Name, info.Version)
	}
}
