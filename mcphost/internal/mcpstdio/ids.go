package mcpstdio

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Keys of a message's _meta that name a client request or carry what the client sent.
const (
	subscriptionKey = "io.modelcontextprotocol/subscriptionId" // a subscriptions/listen request's id
	versionKey      = "io.modelcontextprotocol/protocolVersion"
	methodListen    = "subscriptions/listen"
	methodProgress  = "notifications/progress"
)

// callMeta reads what the transport keeps of a call's params._meta: its progressToken as the client
// wrote it, and, when wantVersion, its per-request protocol version. Params that name neither are
// not decoded.
func callMeta(params json.RawMessage, wantVersion bool) (progress json.RawMessage, version string) {
	if !bytes.Contains(params, []byte(`"progressToken"`)) &&
		(!wantVersion || !bytes.Contains(params, []byte(`"`+versionKey+`"`))) {
		return nil, ""
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil, ""
	}
	if t := p.Meta["progressToken"]; validID(t) {
		progress = t
	}
	_ = json.Unmarshal(p.Meta[versionKey], &version)
	return progress, version
}

// canonical is a JSON value as the SDK re-encodes it (numbers through float64), for matching a
// value the SDK sends back against the text the client sent.
func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// withMeta returns obj (a JSON object) with _meta[key] replaced by value.
func withMeta(obj json.RawMessage, key string, value json.RawMessage) (json.RawMessage, bool) {
	var o map[string]json.RawMessage
	var meta map[string]json.RawMessage
	if json.Unmarshal(obj, &o) != nil || json.Unmarshal(o["_meta"], &meta) != nil || meta == nil {
		return nil, false
	}
	meta[key] = value
	m, err := marshal(meta)
	if err != nil {
		return nil, false
	}
	o["_meta"] = m
	out, err := marshal(o)
	return out, err == nil
}

// marshal encodes a decoded object again without escaping HTML characters, so the strings in it,
// the client's ids among them, keep their spelling.
func marshal(o map[string]json.RawMessage) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// metaValue returns obj._meta[key] as raw JSON, or nil.
func metaValue(obj json.RawMessage, key string) json.RawMessage {
	var o struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(obj, &o) != nil {
		return nil
	}
	return o.Meta[key]
}

// outgoing rewrites a notification the SDK sends so that every id in it that names a client request
// is the client's, as the client wrote it: the subscription id of a subscriptions/listen stream
// (the SDK has the call's internal id) and the progressToken of notifications/progress (the SDK
// re-encodes it through float64). ok is false when the notification names a subscription that is
// no longer open or that the client cancelled: it belongs to a stream the client has ended, and is
// not sent.
func (c *conn) outgoing(m *jsonrpc.Request) (out *jsonrpc.Request, ok bool) {
	if bytes.Contains(m.Params, []byte(`"`+subscriptionKey+`"`)) {
		raw := metaValue(m.Params, subscriptionKey)
		if raw == nil {
			return m, true
		}
		id, err := strconv.ParseInt(string(raw), 10, 64)
		c.mu.Lock()
		cl := c.calls[id]
		c.mu.Unlock()
		if err != nil || cl == nil || cl.method != methodListen || cl.cancelled {
			return nil, false
		}
		params, ok := withMeta(m.Params, subscriptionKey, cl.id)
		if !ok {
			return nil, false
		}
		return &jsonrpc.Request{Method: m.Method, Params: params}, true
	}
	if m.Method == methodProgress {
		var p map[string]json.RawMessage
		if json.Unmarshal(m.Params, &p) != nil || p["progressToken"] == nil {
			return m, true
		}
		sent := string(p["progressToken"])
		c.mu.Lock()
		var token json.RawMessage
		for _, cl := range c.calls {
			if cl.progress != nil && cl.progressSDK == sent {
				token = cl.progress
				break
			}
		}
		c.mu.Unlock()
		if token == nil || string(token) == sent {
			return m, true
		}
		p["progressToken"] = token
		params, err := marshal(p)
		if err != nil {
			return m, true
		}
		return &jsonrpc.Request{Method: m.Method, Params: params}, true
	}
	return m, true
}

// listenResult is the result of a subscriptions/listen call with its subscription id the client's.
func listenResult(cl *call, result json.RawMessage) json.RawMessage {
	if cl.method != methodListen || !bytes.Contains(result, []byte(`"`+subscriptionKey+`"`)) {
		return result
	}
	if out, ok := withMeta(result, subscriptionKey, cl.id); ok {
		return out
	}
	return result
}
