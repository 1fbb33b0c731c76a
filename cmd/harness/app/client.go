package app

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// clientRecorder is a session that records the client driving it (tools.Header.Client).
type clientRecorder interface {
	SetClient(name, version string)
}

// recordClient records in sess the clientInfo of an MCP call (per request under 2026-07-28, else
// the connection's initialize), which sizes the tools' result budget (docs/host.md "What each
// client shows the model"). Sessions of other engines are left alone.
func recordClient(sess session, info *mcp.Implementation) {
	if cr, ok := sess.(clientRecorder); ok && info != nil {
		cr.SetClient(info.Name, info.Version)
	}
}

// SetClient sets the header's client name and version, taking the write lock only on a change.
func (t *toolsSession) SetClient(name, version string) {
	if h := t.s.Header(); h.Client == name && h.ClientVersion == version {
		return
	}
	t.s.UpdateHeader(func(h *tools.Header) { h.Client, h.ClientVersion = name, version })
}
