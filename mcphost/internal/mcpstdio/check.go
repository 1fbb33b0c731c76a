package mcpstdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// kind is what a checked message is.
type kind uint8

const (
	kindCall         kind = iota + 1 // a request with an id
	kindNotification                 // a request without an id
	kindResponse                     // a response to a request the server sent
)

// message is one checked JSON-RPC message from the client.
type message struct {
	kind   kind
	id     json.RawMessage // the id as received (calls and responses)
	method string
	params json.RawMessage
	result json.RawMessage
	err    *jsonrpc.Error
}

// rejection is a message the transport answers itself.
type rejection struct {
	code int64
	msg  string
	id   json.RawMessage // nil: null
}

func parseError(msg string) *rejection {
	return &rejection{code: jsonrpc.CodeParseError, msg: "parse error: " + msg}
}

func invalid(id json.RawMessage, msg string) *rejection {
	return &rejection{code: jsonrpc.CodeInvalidRequest, msg: "invalid request: " + msg, id: id}
}

// checkFrame checks a whole line: valid JSON, not nested deeper than maxDepth. It returns the batch
// elements (nil for a single message) or the line's rejection. Invalid UTF-8 inside a string is left
// to the receiver (a tool refuses such arguments with an error the model can act on); an id must be
// valid UTF-8, since it is echoed.
func checkFrame(b []byte, maxDepth int) (batch []json.RawMessage, isBatch bool, r *rejection) {
	if nestedDeeper(b, maxDepth) {
		return nil, false, invalid(nil, "nesting deeper than "+strconv.Itoa(maxDepth)+" levels")
	}
	if b[0] != '[' {
		// An object is checked as it is decoded (parseMessage); anything else is refused there too,
		// after this tells a line that is not JSON from a value that is not a message.
		if b[0] != '{' && !json.Valid(b) {
			return nil, false, parseError("the line is not one JSON value")
		}
		return nil, false, nil
	}
	if err := json.Unmarshal(b, &batch); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, true, parseError("the line is not one JSON value")
		}
		return nil, true, invalid(nil, "not a JSON-RPC message")
	}
	if len(batch) == 0 {
		return nil, true, invalid(nil, "empty batch")
	}
	return batch, true, nil
}

// parseMessage checks one JSON value as a JSON-RPC message: a batch element (valid JSON), or a line
// that checkFrame passed (valid JSON unless it starts with '{', which is proven here). The members
// are read as json.Unmarshal into a map of them would (the last of duplicate keys), each into
// memory of its own, with one validating pass over b and one scan of its members.
func parseMessage(b []byte) (message, *rejection) {
	var m message
	if len(b) == 0 || b[0] != '{' {
		return m, invalid(nil, "not a JSON-RPC message (expected an object)")
	}
	if !json.Valid(b) {
		return m, parseError("the line is not one JSON value")
	}
	fields := make(map[string]json.RawMessage, 4)
	Members(b, func(k string, v []byte) bool {
		fields[k] = bytes.Clone(v)
		return true
	})
	return fromFields(fields)
}

// fromFields checks the members of a message.
func fromFields(fields map[string]json.RawMessage) (message, *rejection) {
	var m message
	id, hasID := fields["id"]
	idOK := hasID && validID(id)
	var replyID json.RawMessage
	if idOK {
		replyID = id
	}
	if v, ok := fields["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return m, invalid(replyID, `"jsonrpc" must be "2.0"`)
	}
	if hasID && !idOK && string(id) != "null" {
		return m, invalid(nil, `"id" must be a string or a number, in valid UTF-8`)
	}
	if raw, ok := fields["method"]; ok {
		if _, isResult := fields["result"]; isResult {
			return m, invalid(replyID, "a message is a request or a response, not both")
		}
		if _, isError := fields["error"]; isError {
			return m, invalid(replyID, "a message is a request or a response, not both")
		}
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &m.method) != nil {
			return m, invalid(replyID, `"method" must be a string`)
		}
		if p, ok := fields["params"]; ok && string(p) != "null" && p[0] != '{' && p[0] != '[' {
			return m, invalid(replyID, `"params" must be an object or an array`)
		}
		m.params = fields["params"]
		switch {
		case !hasID:
			m.kind = kindNotification
		case !idOK: // "id": null
			return m, invalid(nil, `"id" must be a string or a number`)
		default:
			m.kind, m.id = kindCall, id
		}
		return m, nil
	}
	result, hasResult := fields["result"]
	errv, hasError := fields["error"]
	if hasResult == hasError || !idOK {
		return m, invalid(replyID, "not a JSON-RPC message (a request needs a method, a response an id and a result or an error)")
	}
	m.kind, m.id, m.result = kindResponse, id, result
	if hasError {
		var we jsonrpc.Error
		if json.Unmarshal(errv, &we) != nil {
			return m, invalid(replyID, `"error" must be an error object`)
		}
		m.err = &we
	}
	return m, nil
}

// validID reports whether a raw id is a string or a number.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) && utf8.Valid(id)
}

// nestedDeeper reports whether b nests objects and arrays more than max levels deep. Strings are
// skipped a quote at a time.
func nestedDeeper(b []byte, max int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			if i = jsonscan.SkipString(b, i) - 1; i < 0 {
				return false // not closed: not deeper than what came before
			}
		case '{', '[':
			if depth++; depth > max {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}
