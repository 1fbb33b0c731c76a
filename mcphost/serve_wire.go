package mcphost

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/mcphost/internal/fastpath"
)

// splicer is a transport that writes pre-encoded results in place of their tokens
// (mcpstdio.Transport.Splice).
type splicer interface {
	Splice(b []byte, at int) json.Marshaler
}

// splicedResult is a fastpath.Result that the connection's transport writes: it encodes as the token
// the transport replaces with the result's one-pass encoding.
type splicedResult struct {
	fastpath.Result
	sp splicer
}

// MarshalJSON registers the result's encoding with the transport and returns its token.
func (r splicedResult) MarshalJSON() ([]byte, error) {
	b, at, err := r.Result.Encode(fastpath.Room)
	if err != nil {
		return nil, err
	}
	return r.sp.Splice(b, at).MarshalJSON()
}

// wireResults is receiving middleware that hands tools/call results to jsonrpc2 as fastpath.Result,
// or as splicedResult on a connection whose transport splices. Nothing after the middleware reads
// the result but the JSON encoder; the SDK has already marked its result type (multi-round-trip
// versions), which Result reproduces, and results with input requests are left to the SDK.
func (h *Host) wireResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ctr, ok := res.(*mcp.CallToolResult)
		if !ok || !fast.wire || err != nil || ctr == nil || ctr.InputRequests != nil || ctr.NeedsInput() {
			return res, err
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		wr := fastpath.Result{CallToolResult: ctr, Complete: ss != nil && usesInputRequests(ss)}
		if ss != nil && fast.splice {
			h.mu.Lock()
			sp := h.splicers[ss]
			h.mu.Unlock()
			if sp != nil {
				return splicedResult{wr, sp}, nil
			}
		}
		return wr, nil
	}
}
