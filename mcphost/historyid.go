package mcphost

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// historyID is the history identity of an agent session (docs/history.md "Sessions"): whose changes
// `undo` may take back as the caller's own. An authenticated principal (a --token-file name) is one
// identity, "mcp-principal-<name>", over every connection and every run of the server; otherwise each
// session is its own: "mcp-<Mcp-Session-Id>" over HTTP, "mcp-stdio-<16 hex>" drawn per process on
// stdio, and for the sessionless requests of an unauthenticated client "mcp-unauthenticated-<16 hex>",
// drawn per process (they share one session there).
// overHTTP says the request came over HTTP (the SDK gives such a request its header).
func (h *Host) historyID(ss *mcp.ServerSession, principal string, overHTTP bool) string {
	switch {
	case overHTTP && principal != "":
		return "mcp-principal-" + principal
	case overHTTP && ss != nil && usesInputRequests(ss):
		return "mcp-unauthenticated-" + strings.TrimPrefix(h.processID, "stdio-")
	case ss != nil && ss.ID() != "":
		return "mcp-" + ss.ID()
	}
	return "mcp-" + h.processID
}
