package mcpstdio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// Result is a tools/call result with a one-pass JSON encoding. The SDK's own
// (*mcp.CallToolResult).MarshalJSON nests json.Marshal calls (each content block, then the result),
// and encoding/json re-validates and re-compacts a Marshaler's output at every level, so a large
// text block was scanned three times before jsonrpc2 scanned the whole result twice more. Here each
// block and the structured value are encoded once into one buffer; the JSON values are the SDK's:
// `_meta`, `content`, `structuredContent`, `isError`, in that order, empty ones omitted as the SDK
// omits them. A result using what this encoder does not cover (input requests, request state,
// multi-round-trip results) is encoded by the SDK.
type Result struct {
	*mcp.CallToolResult
	// Complete adds `"resultType":"complete"`, as the SDK marks every finished result of a
	// multi-round-trip protocol version (its field is unexported, so the middleware says).
	Complete bool
}

// MarshalJSON encodes the result in one pass (see Result).
func (r Result) MarshalJSON() ([]byte, error) {
	b, _, err := r.Encode(0)
	return b, err
}

// Encode encodes the result in one pass: it returns b and at, the encoding being b[at:], with at
// equal to room and at least room bytes of capacity free after the encoding (at is 0 for a result
// the SDK encodes).
func (r Result) Encode(room int) (b []byte, at int, err error) {
	b, at, err = r.encodeAll(room)
	if err != nil || len(b)-at <= MaxResult {
		return b, at, err
	}
	// Too large for the official clients (the TypeScript SDK drops a connection whose message is over
	// 10 MiB): the canonical value goes first, the blocks stay; a result whose blocks alone are too
	// large says so instead.
	if r.StructuredContent != nil {
		res := *r.CallToolResult
		res.StructuredContent = nil
		if b, at, err = (Result{&res, r.Complete}).encodeAll(room); err != nil || len(b)-at <= MaxResult {
			return b, at, err
		}
	}
	tooBig := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
		"Error: the result is %d bytes, more than the %d bytes MCP clients accept; ask for less (a smaller window or file)",
		len(b)-at, MaxResult)}}}
	return Result{tooBig, r.Complete}.encodeAll(room)
}

// MaxResult bounds an encoded tools/call result: the TypeScript SDK's stdio client refuses a
// message over 10 MiB (the Go SDK's over 16 MiB), and the envelope needs a little room.
const MaxResult = 10<<20 - 4<<10

func (r Result) encodeAll(room int) (b []byte, at int, err error) {
	res := r.CallToolResult
	if res.InputRequests != nil || res.RequestState != "" || res.NeedsInput() {
		b, err = res.MarshalJSON()
		return b, 0, err
	}
	text := 0
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += len(tc.Text)
		}
	}
	size := 2*room + 64 + text + text/8
	if res.StructuredContent != nil { // typically the text's data again, with keys
		size += 2 * text
	}
	b = Buffer(size)[:room]
	value := func(v any) error { // encodes onto b; Encode adds a newline, dropped
		buf := bytes.NewBuffer(b)
		enc := json.NewEncoder(buf) // HTML escaping on, as json.Marshal: the SDK's bytes
		if err := enc.Encode(v); err != nil {
			return err
		}
		b = buf.Bytes()[:buf.Len()-1]
		return nil
	}
	b = append(b, '{')
	if len(res.Meta) > 0 {
		b = append(b, `"_meta":`...)
		if err := value(res.Meta); err != nil {
			return nil, 0, err
		}
		b = append(b, ',')
	}
	b = append(b, `"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			b = append(b, ',')
		}
		if tc, ok := c.(*mcp.TextContent); ok && tc.Meta == nil && tc.Annotations == nil {
			b = append(b, `{"type":"text","text":`...)
			b = append(jsonscan.AppendString(b, tc.Text), '}') // as encoding/json encodes it, faster
			continue
		}
		raw, err := c.MarshalJSON()
		if err != nil {
			return nil, 0, err
		}
		b = append(b, raw...)
	}
	b = append(b, ']')
	if res.StructuredContent != nil {
		b = append(b, `,"structuredContent":`...)
		if err := value(res.StructuredContent); err != nil {
			return nil, 0, err
		}
	}
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	if r.Complete {
		b = append(b, `,"resultType":"complete"`...)
	}
	b = append(b, '}')
	return slices.Grow(b, room), room, nil
}

// Room is the room a direct call's encoding should leave free before and after it (Direct): the
// response envelope is then written around it in place.
const Room = 128

// Buffer returns an empty buffer of at least n bytes of capacity for an encoding, reusing one whose
// response was written (Recycle).
func Buffer(n int) []byte {
	if b, ok := encodings.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, n)
}

// encodings holds written encodings' buffers up to maxPooled bytes, for Buffer.
var encodings sync.Pool

const maxPooled = 1 << 20

// Recycle gives a written encoding's buffer back to Buffer.
func Recycle(b []byte) {
	if cap(b) <= maxPooled {
		b = b[:0]
		encodings.Put(&b)
	}
}
