package mcphost

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/mcphost/internal/fastpath"
	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// directer is a transport that can run a call outside the SDK (mcpstdio.Transport.SetDirect).
type directer interface {
	SetDirect(mcpstdio.Direct)
}

// directCalls returns the Direct of a stdio connection: a plain tools/call is run by the host, not
// dispatched by the SDK, which saves the SDK's two decodes of the request and its goroutines
// (mcphost/internal/fastpath "What each part buys"). The call is exactly the SDK's:
// the same handler (call) with the same request, under the same receiving middleware's encoding
// (wireResults), and the transport keeps the in-flight accounting and cancellation. Anything the
// SDK would treat differently goes to the SDK: a call before initialize, under a protocol version
// with input requests, or with params other than a served tool's "name", an "arguments" object and
// a "_meta" object without the protocol's own keys (such as a per-request protocol version), or
// with a duplicate or differently spelled key.
func (h *Host) directCalls(ss *mcp.ServerSession) mcpstdio.Direct {
	return func(method string, params json.RawMessage) (func(context.Context) ([]byte, int, error), bool) {
		if !fast.direct || method != "tools/call" || ss.InitializeParams() == nil || usesInputRequests(ss) {
			return nil, false
		}
		p, ok := fastpath.PlainCall(params)
		if !ok {
			return nil, false
		}
		if _, listed := (*h.listed.Load())[p.Name]; !listed { // the SDK's "unknown tool" error
			return nil, false
		}
		if !h.exposes(ss, "", ss.InitializeParams().ClientInfo, p.Name) { // refused by exposeTools
			return nil, false
		}
		return func(ctx context.Context) ([]byte, int, error) {
			h.direct.Add(1)
			res, err := h.call(ctx, &mcp.CallToolRequest{Session: ss, Params: p})
			if err != nil {
				return nil, 0, err
			}
			return fastpath.Result{CallToolResult: res}.Encode(fastpath.Room) // nil content is [], as the SDK sends it
		}, true
	}
}

// fast turns the parts of the fast path on (mcphost/internal/fastpath); the benchmark and the differential
// test turn them off.
var fast = struct{ direct, splice, wire bool }{true, true, true}
