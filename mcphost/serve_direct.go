package mcphost

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// directCalls is the Direct of a stdio connection (mcpstdio.Transport.Direct): a plain tools/call is
// run by the host, not dispatched by the SDK, which saves the SDK's two decodes of the request, its
// goroutines and its re-encodings of the result (mcphost/internal/mcpstdio "The fast path"). The
// transport owns the call (its id, slot and cancellation); the host runs it exactly as the SDK
// would: the same handler (call) with the same request, its result encoded once as the receiving
// middleware encodes it (wireResults). Anything the SDK would treat differently goes to the SDK: a
// call before the SDK has the connection (connected) or before initialize, under a protocol version
// with input requests, or with params other than a served tool's "name", an "arguments" object and
// a "_meta" object without the protocol's own keys (such as a per-request protocol version), or
// with a duplicate or differently spelled key.
func (h *Host) directCalls(connected *atomic.Pointer[mcp.ServerSession]) mcpstdio.Direct {
	return func(method string, params json.RawMessage) (func(context.Context) ([]byte, int, error), bool) {
		ss := connected.Load()
		if !fast.direct || method != "tools/call" || ss == nil || ss.InitializeParams() == nil || usesInputRequests(ss) {
			return nil, false
		}
		p, ok := mcpstdio.PlainCall(params)
		if !ok {
			return nil, false
		}
		if _, listed := (*h.listed.Load())[p.Name]; !listed { // the SDK's "unknown tool" error
			return nil, false
		}
		if !h.exposes(ss, nil, ss.InitializeParams().ClientInfo, p.Name) { // refused by exposeTools
			return nil, false
		}
		return func(ctx context.Context) ([]byte, int, error) {
			h.direct.Add(1)
			res, err := h.call(ctx, &mcp.CallToolRequest{Session: ss, Params: p})
			if err != nil {
				return nil, 0, err
			}
			return mcpstdio.Result{CallToolResult: res}.Encode(mcpstdio.Room) // nil content is [], as the SDK sends it
		}, true
	}
}

// fast turns the parts of the fast path on (mcphost/internal/mcpstdio "The fast path"); the
// benchmark and the differential test turn them off.
var fast = struct{ direct, wire bool }{true, true}
