package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// ResponseError is a JSON-RPC error object.
type ResponseError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *ResponseError) Error() string {
	return "lsp: " + e.Message + " (" + strconv.FormatInt(e.Code, 10) + ")"
}

// The JSON-RPC error codes the client answers with.
const (
	CodeMethodNotFound   = -32601
	CodeRequestCancelled = -32800
)

// ErrClosed reports a call on a connection that has ended.
var ErrClosed = errors.New("lsp: connection closed")

// Handler answers what the peer sends: Request a request (its result, or an error), Notify a
// notification. Both run on the connection's reading goroutine, so they must not block.
type Handler struct {
	Request func(method string, params json.RawMessage) (any, *ResponseError)
	Notify  func(method string, params json.RawMessage)
	// Dropped is told about a frame the reader dropped (over the bound, or not JSON-RPC).
	Dropped func(error)
}

// Conn is a JSON-RPC 2.0 connection over a framed byte stream. One goroutine reads it, from
// NewConn until the stream ends; Done is closed then.
type Conn struct {
	w   io.Writer
	wmu sync.Mutex
	h   Handler

	mu      sync.Mutex
	next    int64
	pending map[int64]chan message
	err     error // why the connection ended, once it has
	done    chan struct{}
}

// message is any JSON-RPC message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *ResponseError  `json:"error,omitempty"`
}

// NewConn starts reading r (frames of at most maxFrame bytes) and returns the connection that
// writes to w.
func NewConn(r io.Reader, w io.Writer, maxFrame int, h Handler) *Conn {
	c := &Conn{w: w, h: h, pending: map[int64]chan message{}, done: make(chan struct{})}
	go c.read(NewFrameReader(r, maxFrame))
	return c
}

// Done is closed when the connection has ended (the stream ended or broke).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended, or nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *Conn) read(fr *FrameReader) {
	var err error
	for {
		var body []byte
		body, err = fr.Read()
		if err != nil {
			var big *FrameTooLargeError
			if errors.As(err, &big) {
				c.dropped(err)
				continue
			}
			break
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			c.dropped(fmt.Errorf("lsp: a message that is not JSON-RPC was dropped"))
			continue
		}
		c.dispatch(m)
	}
	if err == io.EOF {
		err = ErrClosed
	}
	c.mu.Lock()
	c.err = err
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	for _, ch := range pending {
		close(ch)
	}
	close(c.done)
}

func (c *Conn) dropped(err error) {
	if c.h.Dropped != nil {
		c.h.Dropped(err)
	}
}

func (c *Conn) dispatch(m message) {
	switch {
	case m.Method != "" && len(m.ID) > 0:
		var result any
		var rerr *ResponseError
		if c.h.Request != nil {
			result, rerr = c.h.Request(m.Method, m.Params)
		} else {
			rerr = &ResponseError{Code: CodeMethodNotFound, Message: "method not found: " + m.Method}
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		if rerr != nil {
			reply["error"] = rerr
		} else {
			reply["result"] = result
		}
		_ = c.write(reply)
	case m.Method != "":
		if c.h.Notify != nil {
			c.h.Notify(m.Method, m.Params)
		}
	default:
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil {
			c.dropped(fmt.Errorf("lsp: a response with an unknown id was dropped"))
			return
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

func (c *Conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	frame := AppendFrame(nil, body)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.w.Write(frame)
	return err
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	select {
	case <-c.done:
		return c.endErr()
	default:
	}
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *Conn) endErr() error {
	if err := c.Err(); err != nil && err != ErrClosed {
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return ErrClosed
}

// Call sends a request and decodes its result into result (nil: dropped). When ctx ends first it
// tells the server ($/cancelRequest) and returns ctx's error.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	ch := make(chan message, 1)
	c.mu.Lock()
	if c.pending == nil {
		c.mu.Unlock()
		return c.endErr()
	}
	c.next++
	id := c.next
	c.pending[id] = ch
	c.mu.Unlock()
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if err := c.write(req); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return c.endErr()
		}
		if m.Error != nil {
			return m.Error
		}
		if result == nil || len(m.Result) == 0 {
			return nil
		}
		return json.Unmarshal(m.Result, result)
	case <-ctx.Done():
		c.forget(id)
		_ = c.Notify("$/cancelRequest", map[string]any{"id": id})
		return ctx.Err()
	}
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending != nil {
		delete(c.pending, id)
	}
}
