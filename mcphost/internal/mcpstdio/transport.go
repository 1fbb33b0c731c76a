package mcpstdio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/internal/jsonscan"
	"github.com/cordon-dev/cordon/internal/lines"
)

// Defaults of Options.
const (
	// DefaultMaxMessageBytes is the longest line accepted (16 MiB).
	DefaultMaxMessageBytes = lines.DefaultMaxLine
	// DefaultMaxDepth is the deepest nesting of objects and arrays accepted.
	DefaultMaxDepth = 1000
	// DefaultMaxBatch is the most messages a batch may hold.
	DefaultMaxBatch = 1000
	// DefaultMaxBatchBytes is the size of the answers held for a batch at which its calls not yet
	// started are refused instead of run (8 MiB).
	DefaultMaxBatchBytes = 8 << 20
)

// DefaultMaxInFlight is the number of calls in flight at which input stops being read: four per
// core the process may use.
func DefaultMaxInFlight() int { return 4 * runtime.GOMAXPROCS(0) }

// Options bound what one client may make the server hold. The zero value of a field is its default.
type Options struct {
	MaxMessageBytes int
	MaxInFlight     int
	MaxDepth        int
	MaxBatch        int
	MaxBatchBytes   int
	// Rejected, when set, is told about every line the transport answered itself (for logging).
	Rejected func(code int64, message string)
}

func (o Options) withDefaults() Options {
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultMaxInFlight()
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.MaxBatchBytes <= 0 {
		o.MaxBatchBytes = DefaultMaxBatchBytes
	}
	return o
}

// Transport is an mcp.Transport over In and Out (see the package documentation). It makes one
// connection; writes to Out are serialized, one whole line per Write. Closing the connection closes
// In and Out when they are io.Closers. An In that is an *os.File on a pipe or a socket in blocking
// mode is read through the runtime's poller (docs/host.md "The stdio transport"), so closing the
// connection also ends a read that waits.
type Transport struct {
	In  io.Reader
	Out io.Writer
	Options
	// Direct, when set, is offered each call that is a single message before the SDK sees it (see
	// Direct); nil leaves every call to the SDK.
	Direct Direct

	slotWait func() // called when a call must wait for a slot (tests)
	handover func() // called when a new goroutine takes over the reading from a long call (tests)
}

// Direct is offered each client call that is not part of a batch, with its method and params,
// before the SDK sees it. Returning ok false leaves the call to the SDK; returning a run makes the
// call the host's: the transport runs it on the reading goroutine, a new goroutine reading on once
// it has run for 1 to 2 ms (runInline), as one of the calls in flight
// (the same slots, the same duplicate-id check, the same wait at the end of the input), with a
// context that notifications/cancelled for it or the connection's close cancels, and writes its
// response. run returns the result's encoding (b[at:], with Room free before and after it, the
// envelope being written around it in place; at 0 for an encoding without the room), or an error,
// answered as the SDK answers a handler's error. Direct runs on the reading goroutine: it must
// decide quickly and not block. params is valid JSON (a member of a line json.Valid passed
// whole, parseMessage) in memory of its own, which nothing else modifies.
type Direct func(method string, params json.RawMessage) (run func(ctx context.Context) (b []byte, at int, err error), ok bool)

var _ mcp.Transport = (*Transport)(nil)

// Connect starts reading In and returns the connection.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	opt := t.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		direct:   t.Direct,
		slotWait: t.slotWait,
		handover: t.handover,
		ctx:      ctx,
		cancel:   cancel,
		out:      t.Out,
		opt:      opt,
		incoming: make(chan item),
		done:     make(chan struct{}),
		slots:    make(chan struct{}, opt.MaxInFlight),
		calls:    map[int64]*call{},
		byKey:    map[string]int64{},
		pending:  map[string]jsonrpc.ID{},
	}
	c.idle = sync.NewCond(&c.mu)
	if cl, ok := t.In.(io.Closer); ok {
		c.closeIn = cl.Close
	}
	if cl, ok := t.Out.(io.Closer); ok {
		c.closeOut = cl.Close
	}
	in, undo := pollable(t.In)
	c.undoIn = undo
	c.reader = lines.NewReader(in, opt.MaxMessageBytes)
	go c.readLoop(c.reader)
	return c, nil
}

// item is what the reader hands to Read.
type item struct {
	msg jsonrpc.Message
	err error
}

// call is a client call in flight.
type call struct {
	id     json.RawMessage // as the client sent it
	key    string
	method string
	batch  *batch
	part   int
	seq    int64              // the internal id
	cancel context.CancelFunc // a direct call's (see Direct); nil for the SDK's

	progress    json.RawMessage // params._meta.progressToken as the client wrote it, or nil
	progressSDK string          // the same as the SDK encodes it

	cancelled bool // the client cancelled the call: no response goes out (under conn.mu)
}

// batch collects the responses of one incoming batch.
type batch struct {
	parts [][]byte
	left  int // calls not yet answered
	held  int // bytes of the responses in parts
}

type conn struct {
	direct   Direct
	slotWait func()
	handover func()
	ctx      context.Context // the direct calls' parent, cancelled by Close
	cancel   context.CancelFunc
	out      io.Writer
	opt      Options
	incoming chan item
	done     chan struct{}
	slots    chan struct{} // one per call in flight
	closeIn  func() error
	undoIn   func() // ends the poller's reading of In (pollable), before closeIn
	reader   *lines.Reader
	closeOut func() error

	closeOnce sync.Once
	directs   sync.WaitGroup // direct calls running
	watch     inlineWatch
	wmu       sync.Mutex // serializes writes to out

	mu      sync.Mutex
	idle    *sync.Cond // signalled when a call is answered
	seq     int64
	calls   map[int64]*call
	byKey   map[string]int64      // calls in flight by the client's id
	pending map[string]jsonrpc.ID // requests to the client awaiting its response, by id key
	eof     bool                  // the input ended
	closed  bool                  // Close was called
	noBatch string                // the negotiated protocol version, when it has no batches
}

func (c *conn) SessionID() string { return "" }

// Read returns the next checked message, or io.EOF once the input ended and every call was answered.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case it := <-c.incoming:
		return it.msg, it.err
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close stops the connection and closes In and Out when they are Closers (a write blocked on a
// client that stopped reading then fails instead of holding the connection). It cancels the direct
// calls in flight and returns once they have returned, as the SDK's close waits for its handlers.
func (c *conn) Close() error {
	err := c.stop()
	c.directs.Wait()
	return err
}

// stop is Close without the wait for the direct calls (one of which may be stopping).
func (c *conn) stop() error {
	var err error
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.idle.Broadcast()
		c.mu.Unlock()
		c.cancel()
		close(c.done)
		c.undoIn()
		if c.closeIn != nil {
			err = c.closeIn()
		}
		if c.closeOut != nil {
			err = errors.Join(err, c.closeOut())
		}
	})
	return err
}

// deliver hands a message to Read; false means the connection is closed.
func (c *conn) deliver(it item) bool {
	select {
	case c.incoming <- it:
		return true
	case <-c.done:
		return false
	}
}

// readLoop reads, checks and delivers input until it ends, then finishes the calls in flight.
func (c *conn) readLoop(f *lines.Reader) {
	for {
		line, err := f.Next()
		if errors.Is(err, lines.ErrTooLong) {
			c.reject(invalid(nil, "the message is longer than "+strconv.Itoa(c.opt.MaxMessageBytes)+" bytes"))
			continue
		}
		if err != nil {
			c.finish(err)
			return
		}
		if !c.handle(lines.TrimJSON(line)) {
			return
		}
	}
}

// handle checks and delivers one line; false means the connection is closed or another goroutine
// reads now (runInline).
func (c *conn) handle(line []byte) bool {
	if len(line) == 0 {
		return true
	}
	elems, isBatch, r := checkFrame(line, c.opt.MaxDepth)
	if r != nil {
		c.reject(r)
		return true
	}
	if !isBatch {
		m, r := parseMessage(line)
		if r != nil {
			c.reject(r)
			return true
		}
		return c.dispatch(m, nil, 0)
	}
	c.mu.Lock()
	version := c.noBatch
	c.mu.Unlock()
	if version != "" {
		c.reject(invalid(nil, "JSON-RPC batches are not supported in protocol version "+version))
		return true
	}
	if len(elems) > c.opt.MaxBatch {
		c.reject(invalid(nil, "a batch of more than "+strconv.Itoa(c.opt.MaxBatch)+" messages"))
		return true
	}
	b := &batch{parts: make([][]byte, 0, len(elems))}
	type planned struct {
		m    message
		part int // its response's place in the batch; -1 for a notification or a response
	}
	var plan []planned
	for _, e := range elems {
		m, r := parseMessage(e)
		if r != nil {
			b.parts = append(b.parts, errorPart(r.id, &jsonrpc.Error{Code: r.code, Message: r.msg}))
			b.held += len(b.parts[len(b.parts)-1])
			c.rejected(r)
			continue
		}
		if _, v := callMeta(m.params, true); v >= "2025-06-18" { // a request of the sessionless protocol
			c.noteVersion(v)
			c.reject(invalid(nil, "JSON-RPC batches are not supported in protocol version "+v))
			return true
		}
		part := -1
		if m.kind == kindCall {
			part = len(b.parts)
			b.parts = append(b.parts, nil)
			b.left++
		}
		plan = append(plan, planned{m, part})
	}
	if b.left == 0 && len(b.parts) > 0 {
		c.writeBatch(b) // only rejections: answer them now
	}
	for _, p := range plan {
		if !c.dispatch(p.m, b, p.part) {
			return false
		}
	}
	return true
}

// dispatch delivers one checked message. A call takes a slot first (waiting while MaxInFlight calls
// are in flight) and is given an internal id; false means the connection is closed.
func (c *conn) dispatch(m message, b *batch, part int) bool {
	switch m.kind {
	case kindResponse:
		key := jsonscan.IDKey(m.id)
		c.mu.Lock()
		id, ok := c.pending[key]
		delete(c.pending, key)
		c.mu.Unlock()
		if !ok {
			return true // not an answer to anything the server asked: ignored
		}
		resp := &jsonrpc.Response{ID: id, Result: m.result}
		if m.err != nil {
			resp.Error = m.err
		}
		return c.deliver(item{msg: resp})
	case kindNotification:
		if m.method == "notifications/cancelled" {
			params, ok := c.translateCancel(m.params)
			if !ok {
				return true // nothing in flight to cancel, or a direct call, cancelled here
			}
			m.params = params
		}
		return c.deliver(item{msg: &jsonrpc.Request{Method: m.method, Params: m.params}})
	}
	key := jsonscan.IDKey(m.id)
	c.mu.Lock()
	_, dup := c.byKey[key]
	c.mu.Unlock()
	if dup {
		r := invalid(m.id, "a call with this id is still in flight")
		if b != nil {
			c.answerPart(b, part, errorPart(r.id, &jsonrpc.Error{Code: r.code, Message: r.msg}))
			c.rejected(r)
			return true
		}
		c.reject(r)
		return true
	}
	if !c.takeSlot() {
		return false
	}
	if b != nil && c.batchFull(b) {
		<-c.slots
		r := invalid(m.id, "the batch's answers passed "+strconv.Itoa(c.opt.MaxBatchBytes)+" bytes; this call was not run")
		c.answerPart(b, part, errorPart(r.id, &jsonrpc.Error{Code: r.code, Message: r.msg}))
		c.rejected(r)
		return true
	}
	cl := &call{id: m.id, key: key, method: m.method, batch: b, part: part}
	c.mu.Lock()
	known := c.noBatch != "" // the version no longer matters once batches are refused
	c.mu.Unlock()
	if progress, version := callMeta(m.params, !known); progress != nil || version != "" {
		if cl.progress = progress; progress != nil {
			cl.progressSDK = canonical(progress)
		}
		c.noteVersion(version)
	}
	var run func(context.Context) ([]byte, int, error)
	var ctx context.Context
	if c.direct != nil && b == nil {
		var ok bool
		if run, ok = c.direct(m.method, m.params); ok {
			ctx, cl.cancel = context.WithCancel(c.ctx)
		}
	}
	c.mu.Lock()
	if cl.cancel != nil && c.closed { // Close may be waiting for the direct calls: no new one
		c.mu.Unlock()
		cl.cancel()
		<-c.slots
		return false
	}
	c.seq++
	cl.seq = c.seq
	c.calls[cl.seq] = cl
	c.byKey[key] = cl.seq
	if cl.cancel != nil {
		c.directs.Add(1) // under mu, before Close marks the connection closed and waits
	}
	c.mu.Unlock()
	if cl.cancel != nil {
		return c.runInline(ctx, cl, run)
	}
	return c.deliver(item{msg: &jsonrpc.Request{ID: internalID(cl.seq), Method: m.method, Params: m.params}})
}

// takeSlot takes a slot for a call, waiting while MaxInFlight calls are in flight (no input is read
// meanwhile); false means the connection is closed.
func (c *conn) takeSlot() bool {
	select {
	case c.slots <- struct{}{}:
		return true
	default:
	}
	if c.slotWait != nil {
		c.slotWait()
	}
	select {
	case c.slots <- struct{}{}:
		return true
	case <-c.done:
		return false
	}
}

// runDirect runs a direct call and answers it (see Direct).
func (c *conn) runDirect(ctx context.Context, cl *call, run func(context.Context) ([]byte, int, error)) {
	defer c.directs.Done()
	defer cl.cancel()
	b, at, err := run(ctx)
	var part, pooled []byte
	switch {
	case err != nil:
		part = errorPart(cl.id, toWireError(err))
	case at > 0:
		part, pooled = envelopedPart(cl.id, b, at), b
	default:
		part = resultPart(cl.id, b[at:])
	}
	if c.respond(cl, part, pooled) != nil {
		_ = c.stop() // as the SDK ends a connection it cannot write to
	}
}

// internalID is the SDK-side id of the n-th call (jsonrpc has no integer constructor; MakeID takes
// the float64 encoding/json would decode, exact for every count a connection reaches).
func internalID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

// translateCancel rewrites the requestId of notifications/cancelled to the call's internal id and
// marks the call cancelled: its response is not sent (a client that cancelled a request no longer
// knows its id, and takes a response to it for a protocol error).
func (c *conn) translateCancel(params json.RawMessage) (json.RawMessage, bool) {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || !validID(p["requestId"]) {
		return nil, false
	}
	c.mu.Lock()
	id, ok := c.byKey[jsonscan.IDKey(p["requestId"])]
	var cancel context.CancelFunc
	if ok {
		cl := c.calls[id]
		cl.cancelled = true // the client ignores a response to it from now on: none is sent
		cancel = cl.cancel
	}
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	if cancel != nil {
		cancel()
		return nil, false
	}
	p["requestId"] = json.RawMessage(strconv.FormatInt(id, 10))
	out, err := json.Marshal(p)
	return out, err == nil
}

// finish ends the input: requests the server sent the client fail, the calls in flight are
// answered, then Read reports the end (err, or io.EOF).
func (c *conn) finish(err error) {
	c.mu.Lock()
	c.eof = true
	pending := make([]jsonrpc.ID, 0, len(c.pending))
	for _, id := range c.pending {
		pending = append(pending, id)
	}
	clear(c.pending)
	c.mu.Unlock()
	for _, id := range pending {
		resp := &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: "the client closed its input before answering"}}
		if !c.deliver(item{msg: resp}) {
			return
		}
	}
	// A subscriptions/listen stream lasts until it is cancelled: the open ones end now, each
	// answered with its closing result.
	c.mu.Lock()
	var listens []int64
	for seq, cl := range c.calls {
		if cl.method == methodListen && cl.cancel == nil && !cl.cancelled {
			listens = append(listens, seq)
		}
	}
	c.mu.Unlock()
	for _, seq := range listens {
		end := &jsonrpc.Request{Method: "notifications/cancelled",
			Params: json.RawMessage(`{"requestId":` + strconv.FormatInt(seq, 10) + `,"reason":"the client closed its input"}`)}
		if !c.deliver(item{msg: end}) {
			return
		}
	}
	c.mu.Lock()
	for len(c.calls) > 0 && !c.closed {
		c.idle.Wait()
	}
	c.mu.Unlock()
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	c.deliver(item{err: err})
}

// Write sends a message: a response to a client call goes out with the client's id (and completes
// its batch), unless the client cancelled the call; a notification with the ids in it that name
// client requests as the client wrote them (see outgoing); anything else as the SDK encodes it.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	switch m := msg.(type) {
	case *jsonrpc.Response:
		if id, ok := m.ID.Raw().(int64); ok {
			c.mu.Lock()
			cl := c.calls[id]
			c.mu.Unlock()
			if cl != nil && cl.cancel == nil {
				return c.answer(cl, m)
			}
		}
	case *jsonrpc.Request:
		if !m.ID.IsValid() {
			var ok bool
			if msg, ok = c.outgoing(m); !ok {
				return nil
			}
		} else {
			key, err := json.Marshal(m.ID.Raw())
			if err != nil {
				return err
			}
			c.mu.Lock()
			eof := c.eof
			if !eof {
				c.pending[jsonscan.IDKey(key)] = m.ID
			}
			c.mu.Unlock()
			if eof {
				return fmt.Errorf("%w: the client closed its input", mcp.ErrConnectionClosed)
			}
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.write(append(data, '\n'))
}

// answer writes the response to a client call the SDK answered and releases its slot.
func (c *conn) answer(cl *call, m *jsonrpc.Response) error {
	var part []byte
	if m.Error != nil {
		part = errorPart(cl.id, toWireError(m.Error))
	} else {
		part = resultPart(cl.id, listenResult(cl, m.Result))
		if cl.method == "initialize" {
			c.noteInitialized(m.Result)
		}
	}
	return c.respond(cl, part, nil)
}

// respond writes a call's response (or records it in its batch), hands a direct call's encoding
// buffer back (pooled, see Buffer), forgets the call and releases its slot.
func (c *conn) respond(cl *call, part, pooled []byte) error {
	// The client's id is free once the response is on its way: a client may reuse it as soon as it
	// reads the response. The call stays counted in flight (the end of input waits) until written.
	c.mu.Lock()
	delete(c.byKey, cl.key)
	cancelled := cl.cancelled
	c.mu.Unlock()
	var err error
	switch {
	case cl.batch != nil:
		if cancelled {
			part = nil
		}
		c.answerPart(cl.batch, cl.part, part)
	case !cancelled:
		err = c.write(append(part, '\n'))
	}
	if pooled != nil && (cl.batch == nil || cancelled) {
		Recycle(pooled)
	}
	c.mu.Lock()
	delete(c.calls, cl.seq)
	c.idle.Broadcast()
	c.mu.Unlock()
	<-c.slots
	return err
}

// batchFull reports whether the answers held for a batch reached MaxBatchBytes: its calls not yet
// started are then refused, so what a batch holds is bounded by the budget plus the answers of the
// calls already running (at most MaxInFlight).
func (c *conn) batchFull(b *batch) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return b.held >= c.opt.MaxBatchBytes
}

// answerPart records one response of a batch and writes the batch when it is complete.
func (c *conn) answerPart(b *batch, part int, data []byte) {
	c.mu.Lock()
	b.parts[part] = data
	b.held += len(data)
	b.left--
	done := b.left == 0
	c.mu.Unlock()
	if done {
		c.writeBatch(b)
	}
}

// writeBatch writes a batch's responses as one array; a call the client cancelled has none, and a
// batch left with none is not answered.
func (c *conn) writeBatch(b *batch) {
	size, n := 2, 0
	for _, p := range b.parts {
		if p != nil {
			size += len(p) + 1
			n++
		}
	}
	if n == 0 {
		return
	}
	out := make([]byte, 0, size+1)
	out = append(out, '[')
	for _, p := range b.parts {
		if p == nil {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	_ = c.write(append(out, ']', '\n'))
}

// noteInitialized records the protocol version initialize negotiated.
func (c *conn) noteInitialized(result json.RawMessage) {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(result, &r) == nil {
		c.noteVersion(r.ProtocolVersion)
	}
}

// noteVersion records a protocol version the client speaks (negotiated by initialize, or named by
// a request of the sessionless protocol) when it has no batches.
func (c *conn) noteVersion(v string) {
	if v >= "2025-06-18" {
		c.mu.Lock()
		if c.noBatch == "" {
			c.noBatch = v
		}
		c.mu.Unlock()
	}
}

// reject answers a line the transport refused.
func (c *conn) reject(r *rejection) {
	c.rejected(r)
	_ = c.write(append(errorPart(r.id, &jsonrpc.Error{Code: r.code, Message: r.msg}), '\n'))
}

func (c *conn) rejected(r *rejection) {
	if c.opt.Rejected != nil {
		c.opt.Rejected(r.code, r.msg)
	}
}

// write writes one whole line to Out.
func (c *conn) write(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(data)
	return err
}

// resultPart encodes a result response; the result is already compact JSON (the SDK's encoding).
func resultPart(id, result json.RawMessage) []byte {
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	out := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`+"\n")+len(id)+len(result))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}

// envelopedPart encodes a result response around a direct call's encoding b[at:], in b itself when
// the envelope fits in the room left around it.
func envelopedPart(id json.RawMessage, b []byte, at int) []byte {
	head := len(`{"jsonrpc":"2.0","id":,"result":`) + len(id)
	if head > at || cap(b)-len(b) < len("}\n") {
		return resultPart(id, b[at:])
	}
	out := b[at-head:]
	n := copy(out, `{"jsonrpc":"2.0","id":`)
	n += copy(out[n:], id)
	copy(out[n:], `,"result":`)
	return append(out, '}')
}

// errorPart encodes an error response; id nil is null.
func errorPart(id json.RawMessage, e *jsonrpc.Error) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	body, err := json.Marshal(e)
	if err != nil {
		body = []byte(`{"code":-32603,"message":"internal error"}`)
	}
	out := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	out = append(out, `,"error":`...)
	out = append(out, body...)
	return append(out, '}')
}

// toWireError is the JSON-RPC error of a handler's error, as the SDK builds it: a wrapped
// *jsonrpc.Error keeps its code (and data), the message is the outer error's.
func toWireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		if we == err {
			return we
		}
		return &jsonrpc.Error{Code: we.Code, Message: err.Error(), Data: we.Data}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}
