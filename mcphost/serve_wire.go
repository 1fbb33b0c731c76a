package mcphost

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// wireResults is receiving middleware that hands tools/call results to jsonrpc2 as mcpstdio.Result,
// their one-pass encoding. Nothing after the middleware reads the result but the JSON encoder; the
// SDK has already marked its result type (multi-round-trip versions), which Result reproduces, and
// results with input requests are left to the SDK.
func (h *Host) wireResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ctr, ok := res.(*mcp.CallToolResult)
		if !ok || !fast.wire || err != nil || ctr == nil || ctr.InputRequests != nil || ctr.NeedsInput() {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		return mcpstdio.Result{CallToolResult: ctr, Complete: ss != nil && usesInputRequests(ss)}, nil
	}
}
