package mcphost

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/internal/mcpstdio"
)

// directer is a transport that can run a call outside the SDK (mcpstdio.Transport.SetDirect).
type directer interface {
	SetDirect(mcpstdio.Direct)
}

// directCalls returns the Direct of a stdio connection: a plain tools/call is run by the host, not
// dispatched by the SDK, which saves the SDK's two decodes of the request and its goroutines
// (8 to 13 % of a 2,000-line read's server CPU, e2e/abread.mjs). The call is exactly the SDK's:
// the same handler (call) with the same request, under the same receiving middleware's encoding
// (wireResults), and the transport keeps the in-flight accounting and cancellation. Anything the
// SDK would treat differently goes to the SDK: a call before initialize, under a protocol version
// with input requests, or with params other than a served tool's "name", an "arguments" object and
// a "_meta" object without the protocol's own keys (such as a per-request protocol version), or
// with a duplicate or differently spelled key.
func (h *Host) directCalls(ss *mcp.ServerSession) mcpstdio.Direct {
	return func(method string, params json.RawMessage) (func(context.Context) ([]byte, int, error), bool) {
		if method != "tools/call" || ss.InitializeParams() == nil || usesInputRequests(ss) {
			return nil, false
		}
		p, ok := plainCall(params)
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
			growStack()
			res, err := h.call(ctx, &mcp.CallToolRequest{Session: ss, Params: p})
			if err != nil {
				return nil, 0, err
			}
			return wireResult{CallToolResult: res}.encode(mcpstdio.SpliceRoom) // nil content is [], as the SDK sends it
		}, true
	}
}

// plainCall reads the params of a tools/call made of a "name" string in valid UTF-8 and, optionally,
// an "arguments" object or null and a "_meta" object with no key in the protocol's reserved
// "io.modelcontextprotocol/" namespace, each once; ok is false for anything else.
func plainCall(params json.RawMessage) (p *mcp.CallToolParamsRaw, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(params))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	p = &mcp.CallToolParamsRaw{}
	var seenName, seenArgs, seenMeta bool
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil, false
		}
		switch k {
		case "name":
			if seenName || raw[0] != '"' || !utf8.Valid(raw) || json.Unmarshal(raw, &p.Name) != nil {
				return nil, false
			}
			seenName = true
		case "arguments":
			if seenArgs || (raw[0] != '{' && string(raw) != "null") {
				return nil, false
			}
			seenArgs, p.Arguments = true, raw
		case "_meta":
			if seenMeta || raw[0] != '{' || json.Unmarshal(raw, &p.Meta) != nil {
				return nil, false
			}
			for k := range p.Meta {
				if strings.HasPrefix(k, "io.modelcontextprotocol/") {
					return nil, false
				}
			}
			seenMeta = true
		default:
			return nil, false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || !seenName {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return p, true
}
